/**
 * PostgreSQL error codes the code reacts to (SQLSTATE, appendix A of the PostgreSQL manual),
 * named once instead of compared as literals where they are caught.
 */
export const PG_UNIQUE_VIOLATION = '23505';

function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** A unique index refused the row: two identical requests raced, or the row exists. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === PG_UNIQUE_VIOLATION;
}
