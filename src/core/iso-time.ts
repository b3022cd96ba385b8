/**
 * A stored timestamp as the contract writes it (ISO 8601, UTC, `...Z`), or null when there is
 * none: the one spelling of every `...AtUtc` field of a response.
 */
export function iso(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}
