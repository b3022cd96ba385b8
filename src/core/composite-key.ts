/**
 * One key of several text parts for a Map or Set (package and version, ecosystem and name, ...).
 * The parts are joined with NUL, which no stored text contains (core/storable-text.ts), so two
 * different tuples never make the same key; a missing part counts as empty text.
 */
export const KEY_SEPARATOR = '\u0000';

export function compositeKey(...parts: readonly (string | number | null | undefined)[]): string {
  return parts.map((part) => part ?? '').join(KEY_SEPARATOR);
}

/** The parts of a key made by compositeKey. */
export function keyParts(key: string): string[] {
  return key.split(KEY_SEPARATOR);
}
