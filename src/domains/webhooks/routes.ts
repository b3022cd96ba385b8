import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config';
import type { Database } from '../../db/connection';
import { withErrors } from '../../http/schemas';
import type { SecretBox } from '../../security/secret-box';
import { type IngestProvider, ingestDelivery, requireIdentityHeader } from './service';

const Accepted = Type.Object({
  accepted: Type.Literal(true),
  event: Type.Union([Type.String(), Type.Null()], { description: 'The event type received' }),
  scansQueued: Type.Integer({ description: 'Scans this delivery queued (0 when ignored)' }),
});

const IDENTITY: Record<IngestProvider, string> = {
  'scm-a':
    'X-Hub-Signature-256: sha256=HMAC-SHA256(raw body, connection secret); event in X-Scm-A-Event',
  'scm-b': 'X-Scm-B-Token: the per-connection secret verbatim; event in X-Scm-B-Event',
  'scm-c': 'Authorization: Basic credential configured on the subscription (password = secret)',
  'scm-d':
    'cloud: X-Hub-Signature sha256=HMAC of the raw body; data center: Authorization: Bearer secret; event in X-Event-Key',
};

/** For the operationIds: receiveScmAWebhook and so on. */
const PROVIDER_NAMES: Record<IngestProvider, string> = {
  'scm-a': 'ScmA',
  'scm-b': 'ScmB',
  'scm-c': 'ScmC',
  'scm-d': 'ScmD',
};

/**
 * Push ingest endpoints: public (the provider authenticates with its own headers), exempt from
 * rate limits (by path), and reading the raw body so signatures are checked over the exact bytes.
 */
export function webhookRoutes(deps: {
  config: Config;
  database: Database;
  secretBox: SecretBox;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Scoped to this plugin: every content type arrives as the raw bytes, JSON is parsed only
    // after the identity is verified.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );

    for (const provider of ['scm-a', 'scm-b', 'scm-c', 'scm-d'] as const) {
      app.post(
        `/api/v1/webhooks/${provider}`,
        {
          bodyLimit: deps.config.sources.webhookBodyLimitBytes,
          schema: {
            tags: ['Webhooks'],
            operationId: `receive${PROVIDER_NAMES[provider]}Webhook`,
            summary: `Receive a ${provider} push delivery`,
            description: `${IDENTITY[provider]}. The payload is the provider's native JSON.`,
            security: [],
            response: withErrors({ 202: Accepted }, [401, 413], { authenticated: false }),
          },
          config: { auth: false },
          // Before the body is read: no identity header, no bytes (docs/http-rules.md). The
          // connection closes after the 401, so the unread body is never waited for.
          onRequest: async (request, reply) => {
            reply.header('connection', 'close');
            requireIdentityHeader(provider, request.headers);
            reply.removeHeader('connection');
          },
        },
        async (request, reply) => {
          const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const outcome = await ingestDelivery(deps, {
            provider,
            headers: request.headers,
            raw,
            ip: request.ip,
            correlationId: request.id,
          });
          return reply.code(202).send({ accepted: true, ...outcome });
        },
      );
    }
  };
}
