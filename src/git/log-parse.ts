/**
 * Small parsers shared by the history passes: split git output into records and
 * fields using the control characters we ask git to print (RS = \x1e, US = \x1f).
 */

export const RS = '\x1e';
export const US = '\x1f';

/** Split on the record separator, dropping the empty head before the first record. */
export function records(stdout: string): string[] {
  return stdout.split(RS).filter((r) => r.trim() !== '');
}

/** Lines of a record after its first line (the header), without empty lines. */
export function bodyLines(record: string): string[] {
  const nl = record.indexOf('\n');
  if (nl < 0) return [];
  return record
    .slice(nl + 1)
    .split('\n')
    .filter((l) => l !== '');
}

/** The header line of a record. */
export function headerLine(record: string): string {
  const nl = record.indexOf('\n');
  return nl < 0 ? record : record.slice(0, nl);
}
