import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { FEATURES, PLAN_DEFINITIONS, planHas } from '../core/plans';
import { forbidden, ProblemError, unauthorized } from '../core/problem';
import { holdsRole } from '../core/roles';
import type { Database } from '../db/connection';
import type { DB } from '../db/schema';
import { withTenant } from '../db/tenant-scope';
import { hashToken, parseBearer } from '../security/tokens';
import { openAuthenticatedScope } from './authenticate';
import { type Bucket, isRateLimitExempt, type RateLimitStore } from './rate-limit';
import { isWebAppDocument } from './web-app';

/** One audited call, as the pipeline sees it; the audit log decides how it is stored. */
export interface AuditedCall {
  actorTokenId: string | null;
  action: string;
  resourceType: string;
  resourceId: string | null;
  statusCode: number;
  ip: string | null;
  correlationId: string;
  details: Record<string, unknown> | null;
}

/**
 * What the pipeline needs from the rest of the service. The audit log and token usage are
 * ports: the composition root (app.ts) wires the domains behind them, so http/ never
 * imports a domain (docs/architecture.md, layer rules).
 */
export interface PipelineDeps {
  database: Database;
  rateLimits: RateLimitStore;
  limits: { tenantPerMinute: number; tokenPerMinute: number; ipPerMinute: number };
  /** Notes that a token was used; the write is batched by the implementation. */
  tokenUsage: { touch(tokenId: string, tenantId: string): void };
  /** Writes one audit entry on `db`, a connection scoped to the caller's tenant. */
  audit: { write(db: Kysely<DB>, call: AuditedCall): Promise<void> };
  /** Told of each 429 with the refusing bucket's kind (the metrics count them). */
  onRateLimited?: (kind: string) => void;
}

function pathOf(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return q === -1 ? request.url : request.url.slice(0, q);
}

async function enforceRateLimit(
  deps: PipelineDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  buckets: Bucket[],
): Promise<void> {
  const decision = await deps.rateLimits.check(buckets);
  reply.header('RateLimit-Limit', decision.limit);
  reply.header('RateLimit-Remaining', decision.remaining);
  reply.header('RateLimit-Reset', decision.resetSeconds);
  if (!decision.allowed) {
    deps.onRateLimited?.(decision.kind ?? 'unknown');
    throw new ProblemError(
      429,
      `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${decision.resetSeconds} seconds.`,
      { headers: { 'Retry-After': String(decision.resetSeconds) } },
    );
  }
  request.log.trace({ remaining: decision.remaining }, 'rate limit');
}

/** A failure's audit entry is retried this often (a busy pool frees up) before it is logged. */
const FAILURE_AUDIT_ATTEMPTS = 3;
/** Audit status of a call whose client left before the response. */
export const ABORTED_STATUS = 499;

/**
 * The request pipeline shared by every route: authentication and the tenant transaction,
 * rate limits, role and plan checks, audit entries, and commit or rollback at the end.
 */
export function registerPipeline(app: FastifyInstance, deps: PipelineDeps): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('scope', null);
  app.decorateRequest('auditResourceId', null);
  app.decorateRequest('auditDetails', null);
  app.addHook('onRequest', authenticateAndLimit(deps));
  // Role and plan checks come before body validation: a caller without the role learns nothing.
  app.addHook('preValidation', checkRoleAndPlan);
  registerFinish(app, deps);
}

/**
 * onRequest: the token, the tenant scope opened with it (a session for reads, a transaction
 * otherwise) and the rate limits; public and unknown routes count against the caller's IP.
 */
function authenticateAndLimit(deps: PipelineDeps) {
  const ipBucket = (request: FastifyRequest): Bucket[] => [
    { key: `ip:${request.ip}`, limit: deps.limits.ipPerMinute },
  ];

  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const exempt = isRateLimitExempt(pathOf(request)) || isWebAppDocument(request);
    const config = request.routeOptions.config;
    if (request.is404 || config?.auth === false) {
      if (!exempt) await enforceRateLimit(deps, request, reply, ipBucket(request));
      return;
    }
    const token = parseBearer(request.headers.authorization);
    const released = config?.scope === 'released';
    const readOnly =
      ((request.method === 'GET' || request.method === 'HEAD') && !config?.isolation) || released;
    const opened = token
      ? await openAuthenticatedScope(
          deps.database,
          hashToken(token),
          readOnly
            ? { kind: config?.reads === 'replica' && !released ? 'replica' : 'session' }
            : { kind: 'transaction', isolation: config?.isolation ?? 'read committed' },
        )
      : null;
    if (!opened) {
      if (!exempt) await enforceRateLimit(deps, request, reply, ipBucket(request));
      throw unauthorized(
        token ? 'The token is unknown, expired or revoked.' : 'A valid bearer token is required.',
      );
    }
    request.principal = opened.principal;
    if (released) await opened.scope.commit();
    else request.scope = opened.scope;
    deps.tokenUsage.touch(opened.principal.tokenId, opened.principal.tenantId);
    if (exempt) return;
    const plan = PLAN_DEFINITIONS[opened.principal.plan].limits;
    await enforceRateLimit(deps, request, reply, [
      {
        key: `token:${opened.principal.tokenId}`,
        limit: Math.min(
          deps.limits.tokenPerMinute,
          plan.tokenRequestsPerMinute ?? Number.POSITIVE_INFINITY,
        ),
      },
      {
        key: `tenant:${opened.principal.tenantId}`,
        limit: Math.min(
          deps.limits.tenantPerMinute,
          plan.tenantRequestsPerMinute ?? Number.POSITIVE_INFINITY,
        ),
      },
    ]);
  };
}

async function checkRoleAndPlan(request: FastifyRequest): Promise<void> {
  const principal = request.principal;
  if (!principal) return;
  const { role, feature } = request.routeOptions.config ?? {};
  if (role && !holdsRole(principal.roles, role)) {
    throw forbidden(`This operation needs the ${role} role.`);
  }
  if (feature && !planHas(principal.plan, feature)) {
    throw forbidden(`The ${principal.plan} plan does not include: ${FEATURES[feature]}.`);
  }
}

/**
 * The end of a request on a released route (`config.scope: 'released'`): no scope is held, so
 * its entry goes in a transaction of its own, once (onSend and onResponse both finish).
 */
function releasedFinisher(
  deps: PipelineDeps,
  auditsFailure: (request: FastifyRequest, status: number) => boolean,
  writeFailureEntry: (request: FastifyRequest, status: number) => Promise<void>,
) {
  const finished = new WeakSet<FastifyRequest>();
  return async (request: FastifyRequest, status: number): Promise<void> => {
    const principal = request.principal;
    if (request.routeOptions.config?.scope !== 'released' || !principal) return;
    if (finished.has(request)) return;
    finished.add(request);
    if (!request.routeOptions.config.audit) return;
    if (status >= 400) {
      if (auditsFailure(request, status)) await writeFailureEntry(request, status);
      return;
    }
    // No success without its audit entry: a failed write becomes a 500 (the error handler).
    const call = auditedCallOf(request, status);
    await withTenant(deps.database, principal.tenantId, (db) => deps.audit.write(db, call));
  };
}

/** Commit or rollback at the end of every scoped request, with its audit entry. */
function registerFinish(app: FastifyInstance, deps: PipelineDeps): void {
  // Every audited call leaves an entry (docs/decisions/0002-audit-and-failures.md): a success
  // only together with its entry, a failure in its own transaction after the rollback.
  const auditsFailure = (request: FastifyRequest, status: number) =>
    Boolean(request.routeOptions.config?.audit && request.principal && status !== 429);

  const writeFailureEntry = async (request: FastifyRequest, status: number) => {
    const principal = request.principal;
    if (!principal) return;
    const call = auditedCallOf(request, status);
    for (let attempt = 1; ; attempt++) {
      try {
        await withTenant(deps.database, principal.tenantId, (db) => deps.audit.write(db, call));
        return;
      } catch (error) {
        if (attempt >= FAILURE_AUDIT_ATTEMPTS) {
          // Nothing changed (the request failed and was rolled back); the entry goes to the
          // log in full so that it is not lost without a trace.
          request.log.error({ err: error, auditEntry: call }, 'could not write the audit entry');
          return;
        }
      }
    }
  };

  const finishReleased = releasedFinisher(deps, auditsFailure, writeFailureEntry);

  const finish = async (request: FastifyRequest, status: number) => {
    const scope = request.scope;
    if (!scope) return finishReleased(request, status);
    request.scope = null;
    const audit = request.routeOptions.config?.audit;
    if (status < 400) {
      try {
        if (audit && request.principal) {
          await deps.audit.write(scope.db, auditedCallOf(request, status));
        }
        await scope.commit();
        return;
      } catch (error) {
        // No success without its audit entry: the change is rolled back and the request
        // becomes a 500 (the error handler), audited as such.
        await scope.rollback().catch(() => {});
        if (auditsFailure(request, 500)) await writeFailureEntry(request, 500);
        throw error;
      }
    }
    await scope
      .rollback()
      .catch((error) => request.log.error({ err: error }, 'could not roll back the request'));
    if (auditsFailure(request, status)) await writeFailureEntry(request, status);
  };

  app.addHook('onSend', async (request, reply, payload) => {
    // Streams finish after the last byte is sent (onResponse); everything else before sending,
    // so a failed commit becomes a 500 instead of a success that did not happen.
    const streaming = payload !== null && typeof payload === 'object' && 'pipe' in payload;
    if (!streaming) await finish(request, reply.statusCode);
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    await finish(request, reply.statusCode).catch((error) =>
      request.log.error({ err: error }, 'could not finish the request transaction'),
    );
  });

  // The caller left (or the connection timed out) before a response: nothing is committed and
  // the call is audited as aborted (status 499, the convention for a client that closed).
  const abandon = async (request: FastifyRequest) => {
    const scope = request.scope;
    if (!scope) return finishReleased(request, ABORTED_STATUS);
    request.scope = null;
    await scope.rollback().catch(() => {});
    if (auditsFailure(request, ABORTED_STATUS)) await writeFailureEntry(request, ABORTED_STATUS);
  };
  app.addHook('onRequestAbort', abandon);
  app.addHook('onTimeout', abandon);
}

/** The first path parameter (the resource acted on, unless the handler named it). */
function firstPathParameter(params: unknown): string | null {
  if (typeof params !== 'object' || params === null) return null;
  const first: unknown = Object.values(params)[0];
  return typeof first === 'string' ? first : null;
}

function auditedCallOf(request: FastifyRequest, status: number): AuditedCall {
  const audit = request.routeOptions.config?.audit;
  const firstParam = firstPathParameter(request.params);
  return {
    actorTokenId: request.principal?.tokenId ?? null,
    action: audit?.action ?? `${request.method} ${request.routeOptions.url}`,
    resourceType: audit?.resourceType ?? 'unknown',
    resourceId: request.auditResourceId ?? firstParam,
    statusCode: status,
    ip: request.ip,
    correlationId: request.id,
    details: request.auditDetails,
  };
}
