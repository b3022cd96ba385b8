import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../config';
import { iso } from '../../core/iso-time';
import { notFound } from '../../core/problem';
import type { Database } from '../../db/connection';
import { pageOf } from '../../http/query';
import { requestScope } from '../../http/request-scope';
import type { RouteApp } from '../../http/route-app';
import { NoContent, UuidParam, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import type { SecretBox } from '../../security/secret-box';
import { type DeliveryWithAttempts, listDeliveries } from '../outbound-deliveries/store';
import { INTEGRATION_TARGET } from './deliver';
import {
  CreateWebhookBody,
  Delivery,
  DeliveryListQuery,
  DeliveryPage,
  Integration,
  IntegrationList,
  IntegrationWithSecret,
  UpdateIntegrationBody,
} from './schemas';
import {
  changeIntegration,
  createWebhookIntegration,
  removeIntegration,
  rotateSigningSecret,
  sendTestEvent,
} from './service';
import { findIntegration, listIntegrations, type PublicIntegration } from './store';

export function presentIntegration(row: PublicIntegration) {
  return {
    integrationId: row.id,
    kind: row.kind,
    name: row.name,
    url: row.url,
    status: row.status,
    disabledReason: row.disabled_reason,
    disabledAtUtc: iso(row.disabled_at),
    lastSuccessAtUtc: iso(row.last_success_at),
    lastFailureAtUtc: iso(row.last_failure_at),
    createdAtUtc: row.created_at.toISOString(),
    updatedAtUtc: row.updated_at.toISOString(),
  };
}

export function presentDelivery({ delivery, attempts }: DeliveryWithAttempts) {
  return {
    deliveryId: delivery.id,
    eventType: delivery.event_type,
    status: delivery.status,
    attemptCount: delivery.attempt_count,
    nextAttemptAtUtc: delivery.status === 'pending' ? iso(delivery.next_attempt_at) : null,
    lastStatusCode: delivery.last_status_code,
    lastError: delivery.last_error,
    createdAtUtc: delivery.created_at.toISOString(),
    finishedAtUtc: iso(delivery.finished_at),
    attempts: attempts.map((attempt) => ({
      attempt: attempt.attempt,
      startedAtUtc: attempt.started_at.toISOString(),
      durationMs: attempt.duration_ms,
      statusCode: attempt.status_code,
      outcome: attempt.outcome,
      error: attempt.error,
    })),
  };
}

interface IntegrationDeps {
  config: Config;
  database: Database;
  secretBox: SecretBox;
}

const TAGS = ['Integrations'];
const AUDIT = { resourceType: 'integration' };
/** Writes: admins of plans with the integrations feature. */
const WRITE = { role: 'admin', feature: 'integrations' } as const;
const IntegrationParams = UuidParam('integrationId');

function readRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/integrations',
    {
      schema: {
        tags: TAGS,
        summary: "The tenant's integrations (unpaged; never returns secrets)",
        response: withErrors({ 200: IntegrationList }),
      },
      config: { role: 'member' },
    },
    async (request) => {
      const items = (await listIntegrations(tenantDb(request))).map(presentIntegration);
      return { items, total: items.length };
    },
  );

  app.get(
    '/api/v1/integrations/:integrationId',
    {
      schema: {
        tags: TAGS,
        summary: 'One integration',
        params: IntegrationParams,
        response: withErrors({ 200: Integration }, [404]),
      },
      config: { role: 'member' },
    },
    async (request) => {
      const row = await findIntegration(tenantDb(request), request.params.integrationId);
      if (!row) throw notFound('The integration');
      return presentIntegration(row);
    },
  );

  app.get(
    '/api/v1/integrations/:integrationId/deliveries',
    {
      schema: {
        tags: TAGS,
        summary: 'Delivery log, newest first: attempts, status codes, durations, next retry',
        params: IntegrationParams,
        querystring: DeliveryListQuery,
        response: withErrors({ 200: DeliveryPage }, [404]),
      },
      config: { role: 'member' },
    },
    async (request) => {
      const db = tenantDb(request);
      const { integrationId } = request.params;
      if (!(await findIntegration(db, integrationId))) throw notFound('The integration');
      const page = pageOf(request.query);
      const { rows, total } = await listDeliveries(db, INTEGRATION_TARGET, integrationId, page);
      return { items: rows.map(presentDelivery), totalEstimate: total, ...page };
    },
  );
}

function createRoutes(app: RouteApp, deps: IntegrationDeps): void {
  app.post(
    '/api/v1/integrations/webhooks',
    {
      schema: {
        tags: TAGS,
        operationId: 'createWebhookIntegration',
        summary: 'Create an outbound webhook integration (the signing secret is shown once)',
        body: CreateWebhookBody,
        response: withErrors({ 201: IntegrationWithSecret }, [413, 415, 422]),
      },
      config: { ...WRITE, audit: { action: 'integration.create', ...AUDIT } },
    },
    async (request, reply) => {
      const created = await createWebhookIntegration(
        requestScope(request, deps.database),
        deps,
        principalOf(request).tenantId,
        request.body,
      );
      request.auditResourceId = created.integration.id;
      request.auditDetails = { kind: 'webhook', name: created.integration.name };
      return reply
        .code(201)
        .send({ ...presentIntegration(created.integration), secret: created.secret });
    },
  );

  app.post(
    '/api/v1/integrations/:integrationId/rotate-secret',
    {
      schema: {
        tags: TAGS,
        operationId: 'rotateIntegrationSecret',
        summary: 'Replace the signing secret (the new one is shown once; the old stops at once)',
        params: IntegrationParams,
        response: withErrors({ 200: IntegrationWithSecret }, [404]),
      },
      config: { ...WRITE, audit: { action: 'integration.rotate_secret', ...AUDIT } },
    },
    async (request) => {
      const { integrationId } = request.params;
      request.auditResourceId = integrationId;
      const rotated = await rotateSigningSecret(tenantDb(request), deps.secretBox, integrationId);
      return { ...presentIntegration(rotated.integration), secret: rotated.secret };
    },
  );

  app.post(
    '/api/v1/integrations/:integrationId/test',
    {
      schema: {
        tags: TAGS,
        operationId: 'testIntegration',
        summary: 'Queue a signed integration.test event; its outcome shows in the delivery log',
        params: IntegrationParams,
        response: withErrors({ 202: Delivery }, [404, 409]),
      },
      config: { ...WRITE, audit: { action: 'integration.test', ...AUDIT } },
    },
    async (request, reply) => {
      const { integrationId } = request.params;
      request.auditResourceId = integrationId;
      const delivery = await sendTestEvent(
        tenantDb(request),
        principalOf(request).tenantId,
        integrationId,
        request.id,
      );
      return reply.code(202).send(presentDelivery({ delivery, attempts: [] }));
    },
  );
}

function changeRoutes(app: RouteApp, deps: IntegrationDeps): void {
  app.patch(
    '/api/v1/integrations/:integrationId',
    {
      schema: {
        tags: TAGS,
        summary: 'Rename, retarget (checked like a new one), disable or re-enable',
        params: IntegrationParams,
        body: UpdateIntegrationBody,
        response: withErrors({ 200: Integration }, [404, 413, 415, 422]),
      },
      config: { ...WRITE, audit: { action: 'integration.update', ...AUDIT } },
    },
    async (request) => {
      const { integrationId } = request.params;
      request.auditResourceId = integrationId;
      request.auditDetails = { fields: Object.keys(request.body) };
      const updated = await changeIntegration(
        requestScope(request, deps.database),
        deps.config,
        principalOf(request).tenantId,
        integrationId,
        request.body,
      );
      return presentIntegration(updated);
    },
  );

  app.delete(
    '/api/v1/integrations/:integrationId',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete an integration with its delivery log (pending deliveries are dropped)',
        params: IntegrationParams,
        response: withErrors({ 204: NoContent }, [404]),
      },
      config: { ...WRITE, audit: { action: 'integration.delete', ...AUDIT } },
    },
    async (request, reply) => {
      const { integrationId } = request.params;
      request.auditResourceId = integrationId;
      await removeIntegration(tenantDb(request), integrationId);
      return reply.code(204).send();
    },
  );
}

export function integrationRoutes(deps: IntegrationDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    readRoutes(app);
    createRoutes(app, deps);
    changeRoutes(app, deps);
  };
}
