import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/connection';
import type { DB } from '../db/schema';
import { beginTenantTransaction } from '../db/tenant-scope';
import { MissingScopeError } from './request-context';

/**
 * The request's tenant scope as a service sees it when it must call the outside world (a
 * provider's API, `git ls-remote`): `db()` is the current scoped Kysely, and `outside(work)`
 * commits what the request holds, runs `work` with no transaction and no connection held, then
 * opens a new scoped transaction for the rest of the request (its writes, its audit entry and
 * the pipeline's COMMIT or ROLLBACK). A provider that takes its full timeout therefore never
 * holds a database connection — on the embedded database there is only one.
 */
export interface RequestScope {
  db: () => Kysely<DB>;
  outside: <T>(work: () => Promise<T>) => Promise<T>;
}

export function requestScope(request: FastifyRequest, database: Database): RequestScope {
  return {
    db: () => {
      if (!request.scope) throw new MissingScopeError();
      return request.scope.db;
    },
    outside: async (work) => {
      const held = request.scope;
      if (!held) throw new MissingScopeError();
      request.scope = null;
      // Only reads happened so far (services step outside before writing): committing them
      // releases the connection and loses nothing.
      await held.commit();
      try {
        return await work();
      } finally {
        // Reopened whether `work` failed or not, so a failure is rolled back and audited by
        // the pipeline exactly as before.
        const scope = await beginTenantTransaction(
          database,
          held.tenantId,
          request.routeOptions.config?.isolation ?? 'read committed',
        );
        if (request.raw.socket?.destroyed) {
          // The caller left meanwhile and the pipeline has finished: nothing would release it.
          await scope.rollback();
        } else request.scope = scope;
      }
    },
  };
}

/** For services called outside a request (tests, jobs): one Kysely, stepping out is a no-op. */
export function fixedScope(db: Kysely<DB>): RequestScope {
  return { db: () => db, outside: (work) => work() };
}
