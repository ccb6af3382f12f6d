/** CSV as Nsight Compute writes it: every field quoted, quotes doubled, one record per line. */

/** One field, quoted. */
export function csvField(value: string): string {
  return `"${value.replace(/"/g, '""')}"`;
}

/** One record: its fields quoted, separated by commas, ended by a newline. */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\n`;
}
