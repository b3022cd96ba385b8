import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../core/problem';
import { pageOf } from '../../http/query';
import type { RouteApp } from '../../http/route-app';
import { UuidParam, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import { craReportRoutes } from './packs/routes';
import { presentClock, presentIncident } from './present';
import {
  Clock,
  ClockList,
  CorrectiveMeasureRequest,
  DueClocks,
  DueClocksQuery,
  Incident,
  IncidentListQuery,
  IncidentPage,
  RecordIncidentRequest,
  SubmissionRequest,
  SubmissionResult,
} from './schemas';
import { recordCorrectiveMeasure, recordIncident, submitClock } from './service';
import {
  clocksOfIncidents,
  findClock,
  findIncident,
  listDueClocks,
  listIncidents,
  listProductClocks,
  productExists,
} from './store';

const TAG = 'CRA';
const HOUR_MS = 3_600_000;

/** Article 14 clocks: what falls due, one clock, the clocks of a product, submissions. */
function clockReadRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/cra/clocks/due',
    {
      schema: {
        tags: [TAG],
        operationId: 'listDueCraClocks',
        summary:
          'Running Article 14 clocks due within withinHours (default 24), overdue ones first',
        querystring: DueClocksQuery,
        response: withErrors({ 200: DueClocks }),
      },
      config: { role: 'viewer', feature: 'cra' },
    },
    async (request) => {
      const withinHours = request.query.withinHours ?? 24;
      const now = new Date();
      const until = new Date(now.getTime() + withinHours * HOUR_MS);
      const rows = await listDueClocks(tenantDb(request), until);
      return {
        items: rows.map((row) => presentClock(row, now)),
        withinHours,
        untilUtc: until.toISOString(),
      };
    },
  );

  app.get(
    '/api/v1/cra/clocks/:clockId',
    {
      schema: {
        tags: [TAG],
        summary: 'One Article 14 clock with its submission',
        params: UuidParam('clockId'),
        response: withErrors({ 200: Clock }, [404]),
      },
      config: { role: 'viewer', feature: 'cra' },
    },
    async (request) => {
      const row = await findClock(tenantDb(request), request.params.clockId);
      if (!row) throw notFound('The clock');
      return presentClock(row);
    },
  );

  app.get(
    '/api/v1/cra/products/:productId/clocks',
    {
      schema: {
        tags: [TAG],
        summary: 'Every Article 14 clock of a product, in the order they started',
        params: UuidParam('productId'),
        response: withErrors({ 200: ClockList }, [404]),
      },
      config: { role: 'viewer', feature: 'cra' },
    },
    async (request) => {
      const db = tenantDb(request);
      if (!(await productExists(db, request.params.productId))) throw notFound('The product');
      const rows = await listProductClocks(db, request.params.productId);
      return { items: rows.map((row) => presentClock(row)) };
    },
  );
}

function clockWriteRoutes(app: RouteApp): void {
  app.post(
    '/api/v1/cra/clocks/:clockId/submission',
    {
      schema: {
        tags: [TAG],
        summary:
          'Record the report sent to the CSIRT and ENISA against a clock (met when on time); an incident notification starts its final-report clock',
        params: UuidParam('clockId'),
        body: SubmissionRequest,
        response: withErrors({ 200: SubmissionResult }, [404, 409, 413, 415]),
      },
      config: {
        role: 'member',
        feature: 'cra',
        audit: { action: 'cra_clock.submit', resourceType: 'cra_clock' },
      },
    },
    async (request) => {
      const { clock, started } = await submitClock(
        tenantDb(request),
        principalOf(request),
        request.params.clockId,
        request.body,
      );
      request.auditDetails = { reference: clock.submission_reference, state: clock.state };
      return { clock: presentClock(clock), startedClocks: started.map((c) => presentClock(c)) };
    },
  );

  app.post(
    '/api/v1/cra/products/:productId/corrective-measures',
    {
      schema: {
        tags: [TAG],
        summary:
          'A corrective or mitigating measure is available for an actively exploited vulnerability: starts its 14-day final-report clock',
        params: UuidParam('productId'),
        body: CorrectiveMeasureRequest,
        response: withErrors({ 201: Clock }, [404, 409, 413, 415]),
      },
      config: {
        role: 'member',
        feature: 'cra',
        audit: { action: 'cra_clock.corrective_measure', resourceType: 'cra_clock' },
      },
    },
    async (request, reply) => {
      const clock = await recordCorrectiveMeasure(
        tenantDb(request),
        principalOf(request),
        request.params.productId,
        request.body,
      );
      request.auditResourceId = clock.id;
      request.auditDetails = {
        productId: clock.product_id,
        vulnerabilityId: clock.vulnerability_id,
      };
      return reply.code(201).send(presentClock(clock));
    },
  );
}

function incidentRoutes(app: RouteApp): void {
  app.post(
    '/api/v1/cra/incidents',
    {
      schema: {
        tags: [TAG],
        summary:
          'Record a severe incident (Art. 14(3)-(5)): its early warning and notification clocks start',
        body: RecordIncidentRequest,
        response: withErrors({ 201: Incident }, [404, 413, 415]),
      },
      config: {
        role: 'member',
        feature: 'cra',
        audit: { action: 'cra_incident.record', resourceType: 'cra_incident' },
      },
    },
    async (request, reply) => {
      const { incident, clocks } = await recordIncident(
        tenantDb(request),
        principalOf(request),
        request.body,
      );
      request.auditResourceId = incident.id;
      request.auditDetails = { productId: incident.product_id };
      return reply.code(201).send(presentIncident(incident, clocks));
    },
  );

  app.get(
    '/api/v1/cra/incidents',
    {
      schema: {
        tags: [TAG],
        summary: 'Severe incidents, most recent awareness first',
        querystring: IncidentListQuery,
        response: withErrors({ 200: IncidentPage }),
      },
      config: { role: 'viewer', feature: 'cra' },
    },
    async (request) => {
      const db = tenantDb(request);
      const page = pageOf(request.query);
      const { rows, total } = await listIncidents(db, { productId: request.query.productId }, page);
      const clocks = await clocksOfIncidents(
        db,
        rows.map((row) => row.id),
      );
      return {
        items: rows.map((row) => presentIncident(row, clocks)),
        totalEstimate: total,
        ...page,
      };
    },
  );

  app.get(
    '/api/v1/cra/incidents/:incidentId',
    {
      schema: {
        tags: [TAG],
        summary: 'One severe incident with its clocks',
        params: UuidParam('incidentId'),
        response: withErrors({ 200: Incident }, [404]),
      },
      config: { role: 'viewer', feature: 'cra' },
    },
    async (request) => {
      const db = tenantDb(request);
      const row = await findIncident(db, request.params.incidentId);
      if (!row) throw notFound('The incident');
      return presentIncident(row, await clocksOfIncidents(db, [row.id]));
    },
  );
}

/**
 * The CRA reporting domain's one plugin: Article 14 clocks and incidents
 * (docs/cra.md#article-14-clocks) and report packs (packs/routes.ts).
 */
export function craReportingRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    clockReadRoutes(app);
    clockWriteRoutes(app);
    incidentRoutes(app);
    await app.register(craReportRoutes);
  };
}
