import type { Feature } from '../core/plans';
import type { Principal } from '../core/principal';
import type { Role } from '../core/roles';
import type { TenantTransaction } from '../db/tenant-scope';

/** Declares what the audit log records for a state-changing route. */
export interface AuditSpec {
  action: string;
  resourceType: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false for public routes; authenticated is the default. */
    auth?: boolean;
    /** The weakest role allowed to call the route (default viewer). */
    role?: Role;
    /** A plan feature the route needs (403 without it). */
    feature?: Feature;
    /**
     * A plan feature that shapes the route's answer without refusing it: the route answers every
     * plan and includes what the feature sells only where the plan has it.
     */
    partialFeature?: Feature;
    /** Recorded in the audit log when set (state-changing routes). */
    audit?: AuditSpec;
    /** Status for schema validation failures: 400 (default) or 422. */
    validationStatus?: 400 | 422;
    /** Isolation level of the request's tenant transaction. */
    isolation?: 'read committed' | 'repeatable read';
    /**
     * 'released': the token is checked and its connection returned at once; the handler opens
     * short tenant transactions of its own (`tenantWork` in ./scope.ts), so that it can wait on
     * something slow (an outside model) without holding a pooled connection. The audit entry
     * is written in its own transaction. Default: the request holds one scope throughout.
     */
    scope?: 'request' | 'released';
    /**
     * 'replica' (GET routes only, opt-in): the request reads the read replica when
     * DATABASE_READ_URL is set and the replica has replayed everything committed before the
     * request; otherwise the primary (docs/scaling.md#read-replica). Only for reads that need
     * not see a write the caller is waiting on beyond that rule, and never with `isolation`.
     */
    reads?: 'primary' | 'replica';
  }

  interface FastifyRequest {
    principal: Principal | null;
    /** The request's tenant-scoped transaction; present on authenticated routes. */
    scope: TenantTransaction | null;
    /** Set by handlers when the audited resource id is not a route parameter. */
    auditResourceId: string | null;
    /** Extra details recorded with the audit entry (never secrets). */
    auditDetails: Record<string, unknown> | null;
  }
}

export class MissingScopeError extends Error {
  constructor() {
    super('this route has no tenant scope: mark it authenticated');
  }
}
