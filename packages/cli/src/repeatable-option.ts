/** Commander's argument parser for an option that may be given several times: the values in order. */
export function collectValues(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
