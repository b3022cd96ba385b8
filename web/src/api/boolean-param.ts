/**
 * A boolean query parameter written as true/false (the API's own spelling, e.g. `direct` of
 * GET .../dependencies), else null (absent or anything else: no filter).
 */
export function booleanParam(search: string, key: string): boolean | null {
  const value = new URLSearchParams(search).get(key);
  if (value === 'true') return true;
  if (value === 'false') return false;
  return null;
}
