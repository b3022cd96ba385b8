/**
 * Filters and paging live in the URL query so a view can be shared (web/README.md). These are
 * pure functions over query strings; the router's useQueryState binds them to the location.
 */

export type QueryChanges = Record<string, string | number | null | undefined>;

/** The query string with `changes` applied: empty, null or undefined removes a key. */
export function withQuery(search: string, changes: QueryChanges): string {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === '') params.delete(key);
    else params.set(key, String(value));
  }
  params.sort();
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * A filter change: applies it and returns to the first page (a page number or cursor belongs
 * to the old filter's result).
 */
export function withFilter(search: string, changes: QueryChanges): string {
  return withQuery(search, { ...changes, page: null, cursor: null });
}

/** One text parameter, or null when absent or blank. */
export function textParam(search: string, key: string): string | null {
  const value = new URLSearchParams(search).get(key);
  return value === null || value.trim() === '' ? null : value;
}

/** One parameter that must be one of `allowed` (anything else reads as absent). */
export function oneOfParam<T extends string>(
  search: string,
  key: string,
  allowed: readonly T[],
): T | null {
  const value = textParam(search, key);
  return allowed.find((candidate) => candidate === value) ?? null;
}

/** A non-negative integer parameter within [0, max], else `fallback`. */
export function intParam(search: string, key: string, fallback: number, max = 1_000_000): number {
  const value = textParam(search, key);
  if (value === null || !/^\d{1,9}$/.test(value)) return fallback;
  const number = Number.parseInt(value, 10);
  return number <= max ? number : fallback;
}
