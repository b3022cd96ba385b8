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

/**
 * The server went away under a statement (a restart, a failover, a replica stopped): SQLSTATE
 * class 08 (connection exception), 57P01 to 57P03 (shutdown), or node-postgres's own message
 * for a socket closed mid-query. A read may be retried; a write's outcome is unknown.
 */
export function isConnectionLost(error: unknown): boolean {
  const state = sqlState(error);
  if (state?.startsWith('08') || state === '57P01' || state === '57P02' || state === '57P03') {
    return true;
  }
  return error instanceof Error && error.message === 'Connection terminated unexpectedly';
}
