/**
 * A pure function of a string, remembered: for parses repeated over and over (drift compares every
 * listed version with the used and the latest one). Bounded: the memory is dropped when `limit`
 * inputs are held. Only for results nobody changes.
 */
export function memoByString<T>(parse: (text: string) => T, limit = 20_000): (text: string) => T {
  const held = new Map<string, T>();
  return (text) => {
    if (held.has(text)) return held.get(text) as T;
    const value = parse(text);
    if (held.size >= limit) held.clear();
    held.set(text, value);
    return value;
  };
}
