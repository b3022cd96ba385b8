import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../../config';
import { pageOf, parseEnum } from '../../../http/query';
import type { RouteApp } from '../../../http/route-app';
import { NoContent, withErrors } from '../../../http/schemas';
import { principalOf, tenantDb } from '../../../http/scope';
import { enqueue } from '../../../jobs/outbox';
import type { RouteDeps } from '../../route-deps';
import { TLS_OBSERVATION_STATES } from '../tables';
import {
  changeEndpoint,
  createEndpoint,
  endpointList,
  loadEndpoint,
  removeEndpoint,
} from './endpoints';
import { PROBE_ENDPOINT } from './jobs';
import { observationPage } from './observations';
import {
  CreateEndpointRequest,
  ENDPOINT_LIMIT_TEXT,
  Endpoint,
  EndpointIdParam,
  EndpointList,
  ObservationListQuery,
  ObservationPage,
  UpdateEndpointRequest,
} from './schemas';

/** The TLS observation routes of the quantum area (docs/quantum.md#tls-observations). */
export const QUANTUM_TAG = 'Quantum';

const FEATURE = 'quantum' as const;

function endpointCollectionRoutes(app: RouteApp, config: Config): void {
  app.get(
    '/api/v1/quantum/tls-endpoints',
    {
      schema: {
        tags: [QUANTUM_TAG],
        summary: 'The TLS endpoints the tenant watches, each with its latest observation',
        response: withErrors({ 200: EndpointList }),
      },
      config: { role: 'viewer', feature: FEATURE },
    },
    async (request) => ({ items: await endpointList(tenantDb(request)) }),
  );

  app.post(
    '/api/v1/quantum/tls-endpoints',
    {
      schema: {
        tags: [QUANTUM_TAG],
        summary: `Watch a TLS endpoint (${ENDPOINT_LIMIT_TEXT}); the schedule probes it within a minute`,
        body: CreateEndpointRequest,
        response: withErrors({ 201: Endpoint }, [409, 413, 415, 422]),
      },
      config: {
        role: 'admin',
        feature: FEATURE,
        audit: { action: 'quantum_tls_endpoint.create', resourceType: 'quantum_tls_endpoint' },
      },
    },
    async (request, reply) => {
      const endpoint = await createEndpoint(
        tenantDb(request),
        config,
        principalOf(request).tenantId,
        request.body,
      );
      request.auditResourceId = endpoint.endpointId;
      return reply.code(201).send(endpoint);
    },
  );
}

function endpointItemRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/quantum/tls-endpoints/:endpointId',
    {
      schema: {
        tags: [QUANTUM_TAG],
        summary: 'One watched TLS endpoint with its latest observation',
        params: EndpointIdParam,
        response: withErrors({ 200: Endpoint }, [404]),
      },
      config: { role: 'viewer', feature: FEATURE },
    },
    async (request) => loadEndpoint(tenantDb(request), request.params.endpointId),
  );

  app.patch(
    '/api/v1/quantum/tls-endpoints/:endpointId',
    {
      schema: {
        tags: [QUANTUM_TAG],
        summary: "Change a watched endpoint's probe interval or server name",
        params: EndpointIdParam,
        body: UpdateEndpointRequest,
        response: withErrors({ 200: Endpoint }, [404, 409, 413, 415, 422]),
      },
      config: {
        role: 'admin',
        feature: FEATURE,
        audit: { action: 'quantum_tls_endpoint.update', resourceType: 'quantum_tls_endpoint' },
      },
    },
    async (request) => {
      request.auditResourceId = request.params.endpointId;
      return changeEndpoint(
        tenantDb(request),
        { tenantId: principalOf(request).tenantId, endpointId: request.params.endpointId },
        request.body,
      );
    },
  );

  app.delete(
    '/api/v1/quantum/tls-endpoints/:endpointId',
    {
      schema: {
        tags: [QUANTUM_TAG],
        summary: 'Stop watching an endpoint (its observations and certificates go with it)',
        params: EndpointIdParam,
        response: withErrors({ 204: NoContent }, [404]),
      },
      config: {
        role: 'admin',
        feature: FEATURE,
        audit: { action: 'quantum_tls_endpoint.delete', resourceType: 'quantum_tls_endpoint' },
      },
    },
    async (request, reply) => {
      request.auditResourceId = request.params.endpointId;
      await removeEndpoint(tenantDb(request), {
        tenantId: principalOf(request).tenantId,
        endpointId: request.params.endpointId,
      });
      return reply.code(204).send();
    },
  );
}

function probeRoutes(app: RouteApp): void {
  app.post(
    '/api/v1/quantum/tls-endpoints/:endpointId/probe',
    {
      schema: {
        tags: [QUANTUM_TAG],
        operationId: 'probeQuantumTlsEndpoint',
        summary: 'Probe a watched endpoint now (queued; a probe already waiting absorbs it)',
        params: EndpointIdParam,
        response: withErrors({ 202: Endpoint }, [404]),
      },
      config: {
        role: 'member',
        feature: FEATURE,
        audit: { action: 'quantum_tls_endpoint.probe', resourceType: 'quantum_tls_endpoint' },
      },
    },
    async (request, reply) => {
      const db = tenantDb(request);
      const endpoint = await loadEndpoint(db, request.params.endpointId);
      request.auditResourceId = endpoint.endpointId;
      await enqueue(db, PROBE_ENDPOINT, {
        tenantId: principalOf(request).tenantId,
        correlationId: request.id,
        data: { endpointId: endpoint.endpointId },
      });
      return reply.code(202).send(endpoint);
    },
  );

  app.get(
    '/api/v1/quantum/tls-observations',
    {
      schema: {
        tags: [QUANTUM_TAG],
        summary:
          'Observations of the watched TLS endpoints, newest first: protocol, cipher suite, key-exchange groups, the chain and the quantum verdict',
        querystring: ObservationListQuery,
        response: withErrors({ 200: ObservationPage }),
      },
      config: { role: 'viewer', feature: FEATURE },
    },
    async (request) => {
      const page = pageOf(request.query);
      const state = parseEnum('state', request.query.state, TLS_OBSERVATION_STATES);
      const { items, total } = await observationPage(
        tenantDb(request),
        { state, endpointId: request.query.endpointId },
        page,
      );
      return { items, totalEstimate: total, ...page };
    },
  );
}

/** The TLS endpoints and their observations; self-contained until the quantum routes fold it in. */
export function quantumTlsRoutes(deps: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    endpointCollectionRoutes(app, deps.config);
    endpointItemRoutes(app);
    probeRoutes(app);
  };
}
