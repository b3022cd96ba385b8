/**
 * One key of several text parts for a Map or Set (package and version, ecosystem and name, ...).
 * The parts are joined with NUL, which no stored text contains (core/storable-text.ts), so two
 * different tuples never make the same key; a missing part counts as empty text.
 */
export const KEY_SEPARATOR = '\u0000';

export function compositeKey(...parts: readonly (string | number | null | undefined)[]): string {
  // A loop, not map/join: keys are made per dependency and advisory in the matcher's hot path.
  let key = `${parts[0] ?? ''}`;
  for (let i = 1; i < parts.length; i++) key += `${KEY_SEPARATOR}${parts[i] ?? ''}`;
  return key;
}

/** The parts of a key made by compositeKey. */
export function keyParts(key: string): string[] {
  return key.split(KEY_SEPARATOR);
}
