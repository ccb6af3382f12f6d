/** The SM number of an architecture name such as `sm_90` (or `sm_90a`); null for another form. @internal */
export function smNumber(architecture: string): number | null {
  const match = /^sm_(\d+)[a-z]?$/.exec(architecture);
  return match ? Number(match[1]) : null;
}
