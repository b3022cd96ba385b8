import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { iso } from '../../core/iso-time';
import { conflict, notFound } from '../../core/problem';
import type { Database } from '../../db/connection';
import { requestScope } from '../../http/request-scope';
import type { RouteApp } from '../../http/route-app';
import {
  DateTime,
  NoContent,
  NullableDateTime,
  NullableString,
  Uuid,
  UuidParam,
  withErrors,
} from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import type { TokenUsageTracker } from '../api-tokens/usage-tracker';
import type { RouteDeps } from '../route-deps';
import {
  type DataExportRow,
  findDataExport,
  findDataExportArchive,
  requestDataExport,
} from './data-export';
import { requestTenantDeletion } from './deletion';
import { tenantUsage } from './usage';

export interface TenantLifecycleDeps {
  database: Database;
  tokenUsage: Pick<TokenUsageTracker, 'pendingCalls'>;
  tenantPerMinute: number;
  dataExportTtlHours: number;
}

const Figure = Type.Object({
  used: Type.Integer(),
  limit: Type.Union([Type.Integer(), Type.Null()], {
    description: "The plan's ceiling; null where the plan sets none",
  }),
});

const TenantUsage = Type.Object({
  plan: Type.String(),
  monthStartUtc: DateTime,
  windowStartUtc: DateTime,
  windowSeconds: Type.Integer(),
  repositories: Figure,
  dependencies: Figure,
  scansThisMonth: Figure,
  apiCallsThisWindow: Figure,
  apiCallsThisMonth: Figure,
  advisoriesMatched: Figure,
  storageBytes: Figure,
});

const DeletionAccepted = Type.Object({
  deletionId: Uuid,
  tenantId: Uuid,
  state: Type.Literal('purging'),
  requestedAtUtc: DateTime,
});

const ManifestFile = Type.Object({
  name: Type.String(),
  table: Type.String(),
  rows: Type.Integer(),
  bytes: Type.Integer(),
  sha256: Type.String(),
});

const DataExport = Type.Object({
  exportId: Uuid,
  state: Type.Union([
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('completed'),
    Type.Literal('failed'),
  ]),
  createdAtUtc: DateTime,
  startedAtUtc: NullableDateTime,
  finishedAtUtc: NullableDateTime,
  expiresAtUtc: DateTime,
  sizeBytes: Type.Union([Type.Integer(), Type.Null()]),
  sha256: NullableString,
  files: Type.Union([Type.Array(ManifestFile), Type.Null()]),
  error: NullableString,
  downloadUrl: NullableString,
});

function presentExport(row: DataExportRow) {
  return {
    exportId: row.id,
    state: row.state,
    createdAtUtc: row.created_at.toISOString(),
    startedAtUtc: iso(row.started_at),
    finishedAtUtc: iso(row.finished_at),
    expiresAtUtc: row.expires_at.toISOString(),
    sizeBytes: row.archive_bytes === null ? null : Number(row.archive_bytes),
    sha256: row.archive_sha256,
    files: row.manifest?.files ?? null,
    error: row.error,
    downloadUrl:
      row.state === 'completed' ? `/api/v1/tenants/current/data-export/${row.id}/download` : null,
  };
}

/** The tenant's own lifecycle: usage, deletion, data export (docs/workspace.md). */
export function tenantLifecycleRoutes(
  routeDeps: Pick<RouteDeps, 'config' | 'database' | 'tokenUsage'>,
): FastifyPluginAsyncTypebox {
  const deps: TenantLifecycleDeps = {
    database: routeDeps.database,
    tokenUsage: routeDeps.tokenUsage,
    tenantPerMinute: routeDeps.config.rateLimits.tenantPerMinute,
    dataExportTtlHours: routeDeps.config.dataExportTtlHours,
  };
  return async (app) => {
    usageRoute(app, deps);
    deletionRoute(app, deps);
    dataExportRoutes(app, deps);
  };
}

function usageRoute(app: RouteApp, deps: TenantLifecycleDeps): void {
  app.get(
    '/api/v1/tenants/current/usage',
    {
      schema: {
        tags: ['Tenant'],
        summary: "The tenant's usage against its plan's limits",
        response: withErrors({ 200: TenantUsage }, [404]),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const { plan, tenantId } = principalOf(request);
      return tenantUsage(tenantDb(request), {
        plan,
        tenantPerMinute: deps.tenantPerMinute,
        pendingCalls: (since) => deps.tokenUsage.pendingCalls(tenantId, since),
      });
    },
  );
}

function deletionRoute(app: RouteApp, deps: TenantLifecycleDeps): void {
  app.delete(
    '/api/v1/tenants/current',
    {
      schema: {
        tags: ['Tenant'],
        summary:
          'Delete the tenant: tokens revoked at once; 204 when purged within the request, 202 while the purge job runs',
        response: withErrors({ 202: DeletionAccepted, 204: NoContent }, [404]),
      },
      // Not audited in the tenant's log: that log is purged with the tenant. The deletion is
      // recorded in tenant_deletions, which outlives it (docs/workspace.md).
      config: { role: 'owner' },
    },
    async (request, reply) => {
      const { tenantId, tokenId } = principalOf(request);
      // The work runs on the system connection; the request's own scope is set aside meanwhile.
      const outcome = await requestScope(request, deps.database).outside(() =>
        requestTenantDeletion(deps.database, tenantId, tokenId),
      );
      if (outcome.kind === 'purged') return reply.code(204).send();
      return reply.code(202).send({
        deletionId: outcome.deletionId,
        tenantId,
        state: 'purging' as const,
        requestedAtUtc: outcome.requestedAt.toISOString(),
      });
    },
  );
}

function dataExportRoutes(app: RouteApp, deps: TenantLifecycleDeps): void {
  app.post(
    '/api/v1/tenants/current/data-export',
    {
      schema: {
        tags: ['Tenant'],
        operationId: 'exportTenantData',
        summary: 'Export every tenant table as NDJSON in a zip, from one consistent snapshot (202)',
        response: withErrors({ 202: DataExport }),
      },
      config: {
        role: 'admin',
        audit: { action: 'tenant.data_export', resourceType: 'data_export' },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const row = await requestDataExport(tenantDb(request), {
        tenantId: principal.tenantId,
        tokenId: principal.tokenId,
        ttlHours: deps.dataExportTtlHours,
        correlationId: request.id,
      });
      request.auditResourceId = row.id;
      return reply.code(202).send(presentExport(row));
    },
  );

  app.get(
    '/api/v1/tenants/current/data-export/:exportId',
    {
      schema: {
        tags: ['Tenant'],
        summary: 'State and manifest of a data export (404 once expired)',
        params: UuidParam('exportId'),
        response: withErrors({ 200: DataExport }, [404]),
      },
      config: { role: 'admin' },
    },
    async (request) => {
      const row = await findDataExport(tenantDb(request), request.params.exportId);
      if (!row) throw notFound('The data export');
      return presentExport(row);
    },
  );

  app.get(
    '/api/v1/tenants/current/data-export/:exportId/download',
    {
      schema: {
        tags: ['Tenant'],
        operationId: 'downloadTenantDataExport',
        summary: 'The export as a zip (409 until completed, 404 once expired)',
        params: UuidParam('exportId'),
        response: withErrors(
          {
            200: Type.Unknown({
              description: 'application/zip: <table>.ndjson files and manifest.json',
            }),
          },
          [404, 409],
        ),
      },
      config: { role: 'admin' },
    },
    async (request, reply) => {
      const row = await findDataExportArchive(tenantDb(request), request.params.exportId);
      if (!row) throw notFound('The data export');
      if (row.state !== 'completed' || row.archive === null) {
        throw conflict(
          row.state === 'failed'
            ? 'The export failed; request a new one.'
            : `The export is ${row.state}; download it once it is completed.`,
        );
      }
      return reply
        .code(200)
        .type('application/zip')
        .header('Content-Disposition', `attachment; filename="driftwatch-export-${row.id}.zip"`)
        .header('ETag', `"${row.archive_sha256}"`)
        .send(row.archive);
    },
  );
}
