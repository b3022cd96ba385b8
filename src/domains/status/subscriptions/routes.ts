import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound, ProblemError } from '../../../core/problem';
import type { Database } from '../../../db/connection';
import type { OpenApiTag } from '../../../http/openapi';
import { ItemsList, withErrors } from '../../../http/schemas';
import type { OperatorCheck } from '../../../security/operator-token';
import { renderAnswerPage } from '../page';
import {
  OutboxMessage,
  SubscribeRequest,
  SubscribeResponse,
  TokenAnswer,
  TokenQuery,
  WebhookSubscriptionRequest,
  WebhookSubscriptionResponse,
} from '../schemas';
import { listOutbox } from './mail';
import {
  confirmEmail,
  type SubscriptionContext,
  subscribeEmail,
  subscribeWebhook,
  type TokenOutcome,
  unsubscribeEmail,
  unsubscribeWebhook,
} from './service';

/**
 * Subscriptions (docs/status.md#subscriptions): e-mail with double opt-in, webhooks, and their
 * token links. JSON as the contract says; the page's form (form-encoded) and links opened in a
 * browser (Accept: text/html) get a plain HTML answer instead, so nothing needs JavaScript.
 */
export interface SubscriptionRouteDeps {
  database: Database;
  subscriptions: SubscriptionContext;
  operatorCheck: OperatorCheck | null;
}

const PUBLIC = { auth: false } as const;
const TAGS: OpenApiTag[] = ['Status'];
const FORM = 'application/x-www-form-urlencoded';

/**
 * The largest body of the public routes that take one without a token (an address or a URL
 * fits many times over): a larger one is a 413 before it is read further (docs/status.md).
 */
export const PUBLIC_BODY_LIMIT = 4096;

export const SUBSCRIBE_MESSAGE =
  'If the address can receive mail, a confirmation link is on its way; nothing is sent before it is confirmed.';

const isForm = (request: FastifyRequest) =>
  (request.headers['content-type'] ?? '').toLowerCase().startsWith(FORM);
const wantsHtml = (request: FastifyRequest) =>
  (request.headers.accept ?? '').toLowerCase().includes('text/html');

function html(reply: FastifyReply, status: number, title: string, message: string) {
  return reply.code(status).type('text/html; charset=utf-8').send(renderAnswerPage(title, message));
}

const ANSWERS: Record<NonNullable<TokenOutcome>, [string, string]> = {
  confirmed: ['Subscription confirmed', 'You will receive an e-mail for each status change.'],
  unsubscribed: ['Unsubscribed', 'You will receive no more status e-mails at this address.'],
};

/** A token link's answer: HTML for browsers, JSON otherwise; 404 for an unknown token. */
function tokenAnswer(request: FastifyRequest, reply: FastifyReply, outcome: TokenOutcome) {
  if (!outcome) {
    if (wantsHtml(request)) {
      return html(reply, 404, 'Link not valid', 'This link is unknown or no longer valid.');
    }
    throw notFound('The token');
  }
  if (wantsHtml(request)) return html(reply, 200, ...ANSWERS[outcome]);
  return reply.code(200).send({ status: outcome });
}

export function subscriptionRoutes(deps: SubscriptionRouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    // The page's form posts form-encoded; only these routes accept it.
    app.addContentTypeParser(
      FORM,
      { parseAs: 'string', bodyLimit: PUBLIC_BODY_LIMIT },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body.toString())));
      },
    );
    const system = deps.database.system;

    app.post(
      '/status/subscribe',
      {
        schema: {
          tags: TAGS,
          operationId: 'subscribeToStatus',
          summary: 'Subscribe an e-mail address (double opt-in: a confirmation link is mailed)',
          body: SubscribeRequest,
          response: withErrors({ 200: SubscribeResponse }, [413], { authenticated: false }),
        },
        config: PUBLIC,
        bodyLimit: PUBLIC_BODY_LIMIT,
      },
      async (request, reply) => {
        try {
          await subscribeEmail(system, deps.subscriptions, request.body.email);
        } catch (error) {
          if (!(isForm(request) && error instanceof ProblemError && error.status === 400)) {
            throw error;
          }
          return html(reply, 400, 'Not subscribed', 'That is not an e-mail address.');
        }
        if (isForm(request)) return html(reply, 200, 'Check your inbox', SUBSCRIBE_MESSAGE);
        return { status: 'pending-confirmation' as const, message: SUBSCRIBE_MESSAGE };
      },
    );

    const tokenSchema = (operationId: string, summary: string, withBody = false) => ({
      schema: {
        tags: TAGS,
        operationId,
        summary,
        querystring: TokenQuery,
        ...(withBody ? { hide: true } : {}),
        response: withErrors({ 200: TokenAnswer }, [404], { authenticated: false }),
      },
      config: PUBLIC,
      bodyLimit: PUBLIC_BODY_LIMIT,
    });

    app.get(
      '/status/subscribe/confirm',
      tokenSchema('confirmStatusSubscription', 'Confirm an e-mail subscription (the mailed link)'),
      async (request, reply) =>
        tokenAnswer(request, reply, await confirmEmail(system, request.query.token)),
    );

    app.get(
      '/status/unsubscribe',
      tokenSchema('unsubscribeFromStatus', 'End an e-mail subscription (the link in every mail)'),
      async (request, reply) =>
        tokenAnswer(request, reply, await unsubscribeEmail(system, request.query.token)),
    );

    // One-click unsubscribe (RFC 8058): mail clients POST to the List-Unsubscribe URL.
    app.post(
      '/status/unsubscribe',
      tokenSchema('unsubscribeFromStatusOneClick', 'One-click unsubscribe (RFC 8058)', true),
      async (request, reply) =>
        tokenAnswer(request, reply, await unsubscribeEmail(system, request.query.token)),
    );

    await app.register(webhookSubscriptionRoutes(deps));
  };
}

function webhookSubscriptionRoutes(deps: SubscriptionRouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const system = deps.database.system;
    app.post(
      '/status/webhooks',
      {
        schema: {
          tags: TAGS,
          operationId: 'subscribeStatusWebhook',
          summary: 'Subscribe a public https URL to signed status notifications',
          body: WebhookSubscriptionRequest,
          response: withErrors({ 201: WebhookSubscriptionResponse }, [413], {
            authenticated: false,
          }),
        },
        config: PUBLIC,
        bodyLimit: PUBLIC_BODY_LIMIT,
      },
      async (request, reply) => {
        const subscription = await subscribeWebhook(
          system,
          deps.subscriptions,
          request.body.url,
          request.ip,
        );
        return reply.code(201).send(subscription);
      },
    );

    app.get(
      '/status/webhooks/unsubscribe',
      {
        schema: {
          tags: TAGS,
          operationId: 'unsubscribeStatusWebhook',
          summary: 'End a webhook subscription',
          querystring: TokenQuery,
          response: withErrors({ 200: TokenAnswer }, [404], { authenticated: false }),
        },
        config: PUBLIC,
      },
      async (request) => {
        const ended = await unsubscribeWebhook(system, request.query.token);
        if (!ended) throw notFound('The token');
        return { status: 'unsubscribed' as const };
      },
    );

    const check = deps.operatorCheck;
    if (!check) return;
    // Operators read the mail outbox (docs/status.md#operators): with no SMTP, it is the mail.
    app.get(
      '/api/v1/status/outbox',
      {
        schema: { hide: true, tags: TAGS, response: { 200: ItemsList(OutboxMessage) } },
        config: PUBLIC,
        onRequest: async (request) => {
          if (!check(request.headers.authorization)) {
            throw new ProblemError(401, 'The operator token is required.');
          }
        },
      },
      async () => ({ items: await listOutbox(system, 100) }),
    );
  };
}
