import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Selectable } from 'kysely';
import { Type } from 'typebox';
import { pageOf, parseTimeWindow, TakeSkipQuery, TimeWindowQuery } from '../../http/query';
import { DateTime, TotalEstimatePage, Uuid, withErrors } from '../../http/schemas';
import { tenantDb } from '../../http/scope';
import { auditEntriesInBatches, listAuditEntries } from './store';
import type { AuditLogTable } from './tables';

const AuditEntry = Type.Object({
  auditEntryId: Uuid,
  occurredAtUtc: DateTime,
  actorTokenId: Type.Union([Uuid, Type.Null()]),
  action: Type.String(),
  resourceType: Type.String(),
  resourceId: Type.Union([Type.String(), Type.Null()]),
  outcome: Type.String(),
  statusCode: Type.Integer(),
  ip: Type.Union([Type.String(), Type.Null()]),
  correlationId: Type.String(),
  details: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
});

const AuditQuery = Type.Object({
  ...TakeSkipQuery,
  ...TimeWindowQuery,
  action: Type.Optional(Type.String()),
  resourceType: Type.Optional(Type.String()),
  actorTokenId: Type.Optional(Uuid),
});

function present(row: Selectable<AuditLogTable>) {
  return {
    auditEntryId: row.id,
    occurredAtUtc: row.occurred_at.toISOString(),
    actorTokenId: row.actor_token_id,
    action: row.action,
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    outcome: row.outcome,
    statusCode: row.status_code,
    ip: row.ip,
    correlationId: row.correlation_id,
    details: (row.details as Record<string, unknown> | null) ?? null,
  };
}

/** Documented as text; the handler streams it (a Readable is never serialised). */
const NdjsonStream = Type.Unsafe<Readable>(
  Type.String({ description: 'One JSON audit entry per line' }),
);

export function auditLogRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/v1/audit-log',
      {
        schema: {
          tags: ['Audit log'],
          summary: 'Every state-changing call, newest first',
          querystring: AuditQuery,
          response: withErrors({ 200: TotalEstimatePage(AuditEntry) }),
        },
        config: { role: 'admin', reads: 'replica' },
      },
      async (request) => {
        const page = pageOf(request.query);
        const window = parseTimeWindow(request.query);
        const { rows, total } = await listAuditEntries(
          tenantDb(request),
          {
            action: request.query.action,
            resourceType: request.query.resourceType,
            actorTokenId: request.query.actorTokenId,
            from: window.from,
            to: window.to,
          },
          page,
        );
        return { items: rows.map(present), totalEstimate: total, ...page };
      },
    );

    app.get(
      '/api/v1/audit-log/export',
      {
        schema: {
          tags: ['Audit log'],
          operationId: 'exportAuditLog',
          summary: 'NDJSON export of one consistent snapshot (one repeatable-read transaction)',
          produces: ['application/x-ndjson'],
          response: withErrors({ 200: NdjsonStream }),
        },
        config: { role: 'admin', feature: 'audit_log_export', isolation: 'repeatable read' },
      },
      async (request, reply) => {
        const db = tenantDb(request);
        async function* lines() {
          for await (const rows of auditEntriesInBatches(db)) {
            yield rows.map((row) => `${JSON.stringify(present(row))}\n`).join('');
          }
        }
        reply.type('application/x-ndjson');
        return reply.send(Readable.from(lines()));
      },
    );
  };
}
