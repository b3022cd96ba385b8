import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config';
import { iso } from '../../core/iso-time';
import { notFound } from '../../core/problem';
import type { Database } from '../../db/connection';
import { requestScope } from '../../http/request-scope';
import type { RouteApp } from '../../http/route-app';
import { NoContent, Uuid, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import type { SecretBox } from '../../security/secret-box';
import {
  CreateDestinationBody,
  Destination,
  DestinationList,
  DestinationWithSecret,
  ExportRun,
  RunList,
  RunsQuery,
} from './schemas';
import { createDestination, queueRun, removeDestination } from './service';
import {
  findDestination,
  listDestinations,
  type PublicDestination,
  type ExportRun as RunRow,
  recentRuns,
} from './store';

export function presentDestination(row: PublicDestination) {
  return {
    destinationId: row.id,
    kind: row.kind,
    name: row.name,
    target: row.target,
    createdAtUtc: row.created_at.toISOString(),
    lastRunAtUtc: iso(row.last_run_at),
  };
}

export function presentRun(row: RunRow) {
  return {
    runId: row.id,
    destinationId: row.destination_id,
    state: row.state,
    trigger: row.trigger,
    rows: Number(row.rows),
    bytes: Number(row.bytes),
    durationMs: row.duration_ms,
    tables: row.tables,
    errors: row.errors,
    createdAtUtc: row.created_at.toISOString(),
    startedAtUtc: iso(row.started_at),
    finishedAtUtc: iso(row.finished_at),
  };
}

interface ExportDeps {
  config: Config;
  database: Database;
  secretBox: SecretBox;
}

const TAGS = ['Analytics'];
const BASE = '/api/v1/analytics/export/destinations';
const AUDIT = { resourceType: 'analytics_export_destination' };
/** Every route needs the plan's warehouse_export feature; reads a member, writes an admin. */
const READ = { role: 'member', feature: 'warehouse_export' } as const;
const WRITE = { role: 'admin', feature: 'warehouse_export' } as const;
const DestinationParams = Type.Object({ id: Uuid });
const DEFAULT_RUNS = 20;

function readRoutes(app: RouteApp): void {
  app.get(
    BASE,
    {
      schema: {
        tags: TAGS,
        operationId: 'listExportDestinations',
        summary: "The tenant's warehouse export destinations (unpaged; never returns secrets)",
        response: withErrors({ 200: DestinationList }),
      },
      config: READ,
    },
    async (request) => {
      const items = (await listDestinations(tenantDb(request))).map(presentDestination);
      return { items, total: items.length };
    },
  );

  app.get(
    `${BASE}/:id`,
    {
      schema: {
        tags: TAGS,
        operationId: 'getExportDestination',
        summary: 'One export destination',
        params: DestinationParams,
        response: withErrors({ 200: Destination }, [404]),
      },
      config: READ,
    },
    async (request) => {
      const row = await findDestination(tenantDb(request), request.params.id);
      if (!row) throw notFound('The destination');
      return presentDestination(row);
    },
  );

  app.get(
    `${BASE}/:id/runs`,
    {
      schema: {
        tags: TAGS,
        operationId: 'listExportDestinationRuns',
        summary: 'The most recent runs of a destination, newest first; limit caps how many',
        params: DestinationParams,
        querystring: RunsQuery,
        response: withErrors({ 200: RunList }, [404]),
      },
      config: READ,
    },
    async (request) => {
      const db = tenantDb(request);
      if (!(await findDestination(db, request.params.id))) throw notFound('The destination');
      const limit = request.query.limit ?? DEFAULT_RUNS;
      const runs = await recentRuns(db, request.params.id, limit);
      return { items: runs.map(presentRun), limit };
    },
  );
}

function writeRoutes(app: RouteApp, deps: ExportDeps): void {
  app.post(
    BASE,
    {
      schema: {
        tags: TAGS,
        operationId: 'createExportDestination',
        summary: 'Add a PostgreSQL or HTTPS destination (checked by the outbound rules)',
        body: CreateDestinationBody,
        response: withErrors({ 201: DestinationWithSecret }, [413, 415, 422]),
      },
      config: { ...WRITE, audit: { action: 'analytics_export.destination_create', ...AUDIT } },
    },
    async (request, reply) => {
      const created = await createDestination(
        requestScope(request, deps.database),
        deps,
        principalOf(request).tenantId,
        request.body,
      );
      request.auditResourceId = created.destination.id;
      request.auditDetails = { kind: created.destination.kind, name: created.destination.name };
      return reply
        .code(201)
        .send({ ...presentDestination(created.destination), secret: created.secret });
    },
  );

  app.delete(
    `${BASE}/:id`,
    {
      schema: {
        tags: TAGS,
        operationId: 'deleteExportDestination',
        summary: 'Delete a destination with its runs and watermarks (its warehouse keeps its rows)',
        params: DestinationParams,
        response: withErrors({ 204: NoContent }, [404]),
      },
      config: { ...WRITE, audit: { action: 'analytics_export.destination_delete', ...AUDIT } },
    },
    async (request, reply) => {
      request.auditResourceId = request.params.id;
      await removeDestination(tenantDb(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    `${BASE}/:id/runs`,
    {
      schema: {
        tags: TAGS,
        operationId: 'triggerExportRun',
        summary: 'Queue a run that appends the facts the destination does not have yet',
        params: DestinationParams,
        response: withErrors({ 202: ExportRun }, [404]),
      },
      config: { ...WRITE, audit: { action: 'analytics_export.run', ...AUDIT } },
    },
    async (request, reply) => {
      request.auditResourceId = request.params.id;
      const run = await queueRun(tenantDb(request), {
        tenantId: principalOf(request).tenantId,
        destinationId: request.params.id,
        trigger: 'manual',
        correlationId: request.id,
      });
      return reply.code(202).send(presentRun(run));
    },
  );
}

export function analyticsExportRoutes(deps: ExportDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    readRoutes(app);
    writeRoutes(app, deps);
  };
}
