/**
 * Reading JSON that came from outside (registry documents, provider answers, OSV records, SBOMs,
 * lockfiles) without trusting its shape: each reader gives the value when it has the wanted
 * shape and a neutral answer (null, an empty list) when it does not, so one odd field never
 * throws.
 */

export type JsonObject = Record<string, unknown>;

/** A plain object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as a plain object, or null. */
export function asObject(value: unknown): JsonObject | null {
  return isObject(value) ? value : null;
}

/** The value as an array, or an empty one. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * A trimmed, non-empty string of at most `max` characters (longer text is cut), or null: for
 * free text shown to people (descriptions, licences, names in registry documents).
 */
export function trimmedText(value: unknown, max = 2000): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '') return null;
  return text.length > max ? text.slice(0, max) : text;
}

/**
 * A string as sent, or a finite number as its decimal text, else null: for identifiers and
 * addresses that must not be altered (providers send ids as numbers or strings).
 */
export function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}
