/**
 * `items` in consecutive slices of at most `size` (the last one may be shorter). Bulk statements
 * take their rows or keys a slice at a time, so no statement passes the protocol's limit of
 * 65,535 parameters or builds one enormous text.
 */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
