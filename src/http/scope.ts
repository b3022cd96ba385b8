import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Principal } from '../core/principal';
import type { Database } from '../db/connection';
import type { DB } from '../db/schema';
import { withTenant } from '../db/tenant-scope';
import { MissingScopeError } from './request-context';

/** The tenant-scoped Kysely of the request (row-level security applies to every query). */
export function tenantDb(request: FastifyRequest): Kysely<DB> {
  if (!request.scope) throw new MissingScopeError();
  return request.scope.db;
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new MissingScopeError();
  return request.principal;
}

/** Work in one short transaction scoped to the caller's tenant (row-level security applies). */
export type TenantWork = <T>(work: (db: Kysely<DB>) => Promise<T>) => Promise<T>;

/**
 * On a route with `config.scope: 'released'` (no connection held between steps): each call
 * opens, commits and releases its own tenant-scoped transaction.
 */
export function tenantWork(request: FastifyRequest, database: Database): TenantWork {
  const { tenantId } = principalOf(request);
  return (work) => withTenant(database, tenantId, work);
}
