/**
 * Lays out rows of cells as a plain-text table: columns padded to their widest cell, text left
 * aligned, the other columns right aligned, a rule under the header.
 */
export function textTable(headers: readonly string[], rows: readonly (readonly string[])[], leftAligned = 1): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column < leftAligned ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}
