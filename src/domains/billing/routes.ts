import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest, ProblemError, unauthorized } from '../../core/problem';
import { DatabaseBusyError } from '../../db/connection';
import { pageOf } from '../../http/query';
import type { RouteApp } from '../../http/route-app';
import { NoContent, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import type { OperatorCheck } from '../../security/operator-token';
import type { DomainRoutes, RouteDeps } from '../route-deps';
import { ingestBillingDelivery, requireSignatureHeaders } from './ingest';
import {
  Accepted,
  BILLING_TAG,
  Invoice,
  InvoiceListQuery,
  InvoicePage,
  InvoiceParam,
  PlanChange,
  PlanChangeRequest,
  SecretParam,
  SecretRequest,
  SecretSummary,
  Subscription,
} from './schemas';
import {
  addProviderSecret,
  countProviderSecrets,
  listProviderSecrets,
  MAX_SECRETS,
  removeProviderSecret,
} from './secrets';
import {
  getInvoice,
  listInvoices,
  presentChange,
  presentInvoice,
  requestPlanChange,
  subscriptionView,
} from './service';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from './signature';

/** Billing events are small; a larger body is refused (400) before it is read further. */
export const BILLING_BODY_LIMIT_BYTES = 256 * 1024;

const tooLarge = () =>
  badRequest(`The delivery body exceeds ${BILLING_BODY_LIMIT_BYTES} bytes.`, {
    body: ['too large'],
  });

/**
 * The provider's deliveries (docs/billing.md#the-webhook): public, exempt from rate limits by
 * path, and scoped like the push webhooks: every content type arrives as raw bytes, read up to
 * the size limit, and JSON is parsed only after the signature over those bytes held.
 */
function webhookRoute(deps: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      payload.on('data', (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        if (size > BILLING_BODY_LIMIT_BYTES) {
          settled = true;
          done(tooLarge(), undefined);
          return;
        }
        chunks.push(chunk);
      });
      payload.on('end', () => {
        if (!settled) done(null, Buffer.concat(chunks, size));
        settled = true;
      });
      payload.on('error', (error) => {
        if (!settled) done(error, undefined);
        settled = true;
      });
    });
    app.post(
      '/api/v1/webhooks/billing-provider',
      {
        schema: {
          tags: [BILLING_TAG],
          operationId: 'receiveBillingProviderWebhook',
          summary: "Receive a billing provider's signed event",
          description: `${TIMESTAMP_HEADER}: Unix seconds; ${SIGNATURE_HEADER}: v1=HMAC-SHA256("<timestamp>." + raw body) in hex, several comma-separated during a rotation. 400: bad or missing signature, signing time over 5 minutes off, malformed body; 500: not stored, retry.`,
          security: [],
          response: withErrors({ 202: Accepted }, [], { authenticated: false }),
        },
        config: { auth: false },
        // Headers first: without well-formed signature headers, or with a declared length over
        // the limit, no byte of the body is read and the connection closes after the 400.
        onRequest: async (request, reply) => {
          reply.header('connection', 'close');
          requireSignatureHeaders(request.headers);
          const declared = Number(request.headers['content-length'] ?? 0);
          if (declared > BILLING_BODY_LIMIT_BYTES) throw tooLarge();
          reply.removeHeader('connection');
        },
      },
      async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const result = await ingestBillingDelivery(
          {
            database: deps.database,
            secretBox: deps.secretBox,
            graceDays: deps.config.billingGraceDays,
            warn: (message) => request.log.warn(message),
          },
          { headers: request.headers, raw, ip: request.ip, correlationId: request.id },
        ).catch((error: unknown) => {
          // The contract gives this route 202, 400 and 500: a busy database (elsewhere a 503)
          // is an event not stored, which the provider retries.
          if (error instanceof DatabaseBusyError) {
            throw new ProblemError(500, 'The event could not be stored now; retry later.');
          }
          throw error;
        });
        return reply.code(202).send({ accepted: true, ...result });
      },
    );
  };
}

function subscriptionRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/billing/subscription',
    {
      schema: {
        tags: [BILLING_TAG],
        summary: "The tenant's plan, subscription state, grace period and pending plan change",
        response: withErrors({ 200: Subscription }),
      },
      config: { role: 'admin' },
    },
    async (request) => subscriptionView(tenantDb(request)),
  );

  app.post(
    '/api/v1/billing/plan-change-requests',
    {
      schema: {
        tags: [BILLING_TAG],
        summary: 'Request another plan (owners); the plan changes when the provider confirms it',
        description:
          '409 when the change is forbidden: the same plan, an unpaid invoice, or more repositories than the requested plan allows.',
        body: PlanChangeRequest,
        response: withErrors({ 202: PlanChange }, [409, 413, 415]),
      },
      config: {
        role: 'owner',
        audit: { action: 'billing.plan_change_request', resourceType: 'billing_plan_change' },
      },
    },
    async (request, reply) => {
      request.auditDetails = { requestedPlan: request.body.plan };
      const row = await requestPlanChange(
        tenantDb(request),
        principalOf(request),
        request.body.plan,
      );
      request.auditResourceId = row.id;
      request.auditDetails = { fromPlan: row.from_plan, requestedPlan: row.requested_plan };
      return reply.code(202).send(presentChange(row));
    },
  );
}

function invoiceRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/billing/invoices',
    {
      schema: {
        tags: [BILLING_TAG],
        summary: "The tenant's invoices, newest first (cursor paging; skip is ignored)",
        querystring: InvoiceListQuery,
        response: withErrors({ 200: InvoicePage }),
      },
      config: { role: 'admin' },
    },
    async (request) => {
      const { take } = pageOf({ take: request.query.take });
      const page = await listInvoices(tenantDb(request), request.query.cursor, take);
      return { ...page, items: page.items.map(presentInvoice), take };
    },
  );

  app.get(
    '/api/v1/billing/invoices/:invoiceId',
    {
      schema: {
        tags: [BILLING_TAG],
        summary: 'One invoice',
        params: InvoiceParam,
        response: withErrors({ 200: Invoice }, [404]),
      },
      config: { role: 'admin' },
    },
    async (request) =>
      presentInvoice(await getInvoice(tenantDb(request), request.params.invoiceId)),
  );
}

/** The provider's signing secrets: the operator token only (docs/billing.md#secrets). */
function operatorRoutes(
  deps: RouteDeps & { operatorCheck: OperatorCheck },
): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addHook('onRequest', async (request) => {
      if (!deps.operatorCheck(request.headers.authorization)) {
        throw unauthorized('The operator token is required.');
      }
    });
    const system = deps.database.system;
    const hidden = { hide: true, tags: [BILLING_TAG] } as const;
    app.post(
      '/api/v1/billing/provider-secrets',
      {
        schema: { ...hidden, body: SecretRequest, response: { 201: SecretSummary } },
        config: { auth: false },
      },
      async (request, reply) => {
        if ((await countProviderSecrets(system)) >= MAX_SECRETS) {
          throw badRequest(`At most ${MAX_SECRETS} secrets at once: remove a retired one first.`);
        }
        return reply
          .code(201)
          .send(await addProviderSecret(system, deps.secretBox, request.body.secret));
      },
    );
    app.get(
      '/api/v1/billing/provider-secrets',
      { schema: { ...hidden }, config: { auth: false } },
      async () => ({ items: await listProviderSecrets(system) }),
    );
    app.delete(
      '/api/v1/billing/provider-secrets/:secretId',
      {
        schema: { ...hidden, params: SecretParam, response: { 204: NoContent } },
        config: { auth: false },
      },
      async (request, reply) => {
        await removeProviderSecret(system, request.params.secretId);
        return reply.code(204).send();
      },
    );
  };
}

/** Billing and plans (docs/billing.md). */
export const billingRoutes: DomainRoutes = (deps) => async (app) => {
  await app.register(webhookRoute(deps));
  subscriptionRoutes(app);
  invoiceRoutes(app);
  if (deps.operatorCheck) {
    await app.register(operatorRoutes({ ...deps, operatorCheck: deps.operatorCheck }));
  }
};
