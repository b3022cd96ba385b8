import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { notFound, ProblemError } from '../../core/problem';
import { enumQuery, pageOf, parseEnum, TakeOnlyQuery } from '../../http/query';
import type { RouteApp } from '../../http/route-app';
import { Uuid, UuidParam, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import { presentScan, presentScanLog, Scan, ScanLogLine, TakeWindow } from './schemas';
import { queueScan, requestScanCancel } from './service';
import { findScan, listScanLogs, listScans, SCAN_STATES } from './store';

const ScanListQuery = Type.Object({
  repositoryId: Type.Optional(Uuid),
  state: enumQuery(SCAN_STATES, 'Scan state:'),
  ...TakeOnlyQuery,
});

const ScanLogQuery = Type.Object({
  ...TakeOnlyQuery,
  sinceUtc: Type.Optional(
    Type.String({ format: 'date-time', description: 'only lines logged at or after this time' }),
  ),
});

export function scanRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    scanRequestRoutes(app);
    scanItemRoutes(app);
  };
}

/** Requesting a scan of a repository, and the list of scans. */
function scanRequestRoutes(app: RouteApp): void {
  app.post(
    '/api/v1/repositories/:repositoryId/scan',
    {
      schema: {
        tags: ['Scans'],
        operationId: 'triggerRepositoryScan',
        summary: 'Queue a scan of the default branch (202); 409 while one is queued or running',
        params: UuidParam('repositoryId'),
        response: withErrors({ 202: Scan }, [404, 409]),
      },
      config: { role: 'member', audit: { action: 'scan.trigger', resourceType: 'scan' } },
    },
    async (request, reply) => {
      const { repositoryId } = request.params;
      const { scan, created } = await queueScan(tenantDb(request), {
        tenantId: principalOf(request).tenantId,
        repositoryId,
        trigger: 'manual',
        correlationId: request.id,
      });
      if (!created) {
        throw new ProblemError(
          409,
          `The repository already has a ${scan.state} scan (${scan.id}); trigger again once it has finished.`,
          { errors: { repositoryId: [`scan ${scan.id} is ${scan.state}`] } },
        );
      }
      request.auditResourceId = scan.id;
      request.auditDetails = { repositoryId };
      return reply.code(202).send(presentScan(scan));
    },
  );

  app.get(
    '/api/v1/scans',
    {
      schema: {
        tags: ['Scans'],
        summary: 'Recent scans, newest first (a take-only window)',
        querystring: ScanListQuery,
        response: withErrors({ 200: TakeWindow(Scan) }),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const state = parseEnum('state', request.query.state, SCAN_STATES);
      const { take } = pageOf(request.query);
      const rows = await listScans(tenantDb(request), {
        repositoryId: request.query.repositoryId,
        state,
        take,
      });
      return { items: rows.map(presentScan), totalReturned: rows.length, take };
    },
  );
}

/** One scan: read it, cancel it, read its logs. */
function scanItemRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/scans/:scanId',
    {
      schema: {
        tags: ['Scans'],
        summary: 'A scan: state, timings, counts by ecosystem, error',
        params: UuidParam('scanId'),
        response: withErrors({ 200: Scan }, [404]),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const { scanId } = request.params;
      const scan = await findScan(tenantDb(request), scanId);
      if (!scan) throw notFound('The scan');
      return presentScan(scan);
    },
  );

  app.post(
    '/api/v1/scans/:scanId/cancel',
    {
      schema: {
        tags: ['Scans'],
        operationId: 'cancelScan',
        summary: 'Cancel a queued or running scan (a running one stops at its next step)',
        params: UuidParam('scanId'),
        response: withErrors({ 200: Scan }, [404, 409]),
      },
      config: { role: 'member', audit: { action: 'scan.cancel', resourceType: 'scan' } },
    },
    async (request) => {
      const db = tenantDb(request);
      const { scanId } = request.params;
      const cancelled = await requestScanCancel(db, scanId, request.id);
      return presentScan(cancelled);
    },
  );

  app.get(
    '/api/v1/scans/:scanId/logs',
    {
      schema: {
        tags: ['Scans'],
        summary: "A scan's log lines, newest first (a take-only window)",
        params: UuidParam('scanId'),
        querystring: ScanLogQuery,
        response: withErrors({ 200: TakeWindow(ScanLogLine) }, [404]),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const db = tenantDb(request);
      const { scanId } = request.params;
      const scan = await db
        .selectFrom('scans')
        .select(sql<number>`1`.as('one'))
        .where('id', '=', scanId)
        .executeTakeFirst();
      if (!scan) throw notFound('The scan');
      const { take } = pageOf(request.query, { take: 100, max: 1000 });
      const rows = await listScanLogs(db, {
        scanId,
        since: request.query.sinceUtc ? new Date(request.query.sinceUtc) : undefined,
        take,
      });
      return { items: rows.map(presentScanLog), totalReturned: rows.length, take };
    },
  );
}
