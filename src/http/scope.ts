import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Principal } from '../core/principal';
import type { DB } from '../db/schema';
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
