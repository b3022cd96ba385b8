import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { loadConfig, type WebhookDeliveryConfig } from '../../src/config';
import { type SelfSignedCertificate, selfSignedCertificate } from './tls-certificate';

/**
 * A local HTTPS webhook receiver for the delivery tests (docs/integrations.md#tests): a
 * self-signed certificate for 127.0.0.1 made for the test, every request recorded, the answer
 * of each request chosen by the test, and `down()`/`up()` to stop listening and come back on
 * the same port. The service reaches it only through the tests' explicit switches: the
 * loopback allow-list (TEST_OUTBOUND_ENV) and `webhooks.caFile` (receiverConfig).
 */
export interface ReceivedRequest {
  headers: Record<string, string>;
  body: string;
  /** The body's bytes as received (a gzip body is not text). */
  raw: Buffer;
  at: number;
  /** The status the receiver answered. */
  answered: number;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  certificate: SelfSignedCertificate;
  received: ReceivedRequest[];
  /** Answers to the next requests in order (a status, or one with headers); then `fallbackStatus`. */
  answers: Array<number | { status: number; headers: Record<string, string> }>;
  fallbackStatus: number;
  /** How long the receiver waits before it answers (a slow receiver). */
  answerDelayMs: number;
  down: () => Promise<void>;
  up: () => Promise<void>;
  close: () => Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** `names`: extra DNS names the certificate covers (a name only a test resolver knows). */
export async function startWebhookReceiver(
  path = '/hooks/driftwatch',
  names: string[] = [],
): Promise<WebhookReceiver> {
  const altNames = ['IP:127.0.0.1', ...names.map((name) => `DNS:${name}`)];
  const certificate = selfSignedCertificate('127.0.0.1', altNames);
  let server: Server | null = null;
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    certificate,
    received: [],
    answers: [],
    fallbackStatus: 200,
    answerDelayMs: 0,
    down: async () => {
      const running = server;
      server = null;
      if (!running) return;
      running.closeAllConnections();
      await new Promise((resolve) => running.close(resolve));
    },
    up: async () => {
      if (server) return;
      server = createServer(
        { key: certificate.key, cert: certificate.cert },
        (request, response) => {
          const chunks: Buffer[] = [];
          request.on('data', (chunk: Buffer) => chunks.push(chunk));
          request.on('end', () => {
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(request.headers)) {
              if (typeof value === 'string') headers[name] = value;
            }
            const answer = receiver.answers.shift() ?? receiver.fallbackStatus;
            receiver.received.push({
              headers,
              body: Buffer.concat(chunks).toString('utf8'),
              raw: Buffer.concat(chunks),
              at: Date.now(),
              answered: typeof answer === 'number' ? answer : answer.status,
            });
            const send = () => {
              if (typeof answer === 'number') response.writeHead(answer).end();
              else response.writeHead(answer.status, answer.headers).end();
            };
            if (receiver.answerDelayMs > 0) setTimeout(send, receiver.answerDelayMs);
            else send();
          });
        },
      );
      receiver.port = await listen(server, receiver.port);
      receiver.url = `https://127.0.0.1:${receiver.port}${path}`;
    },
    close: async () => {
      await receiver.down();
      certificate.remove();
    },
  };
  await receiver.up();
  return receiver;
}

/** Delivery settings for tests: the receiver's certificate trusted, retries in milliseconds. */
export function receiverConfig(
  receiver: WebhookReceiver,
  overrides: Partial<WebhookDeliveryConfig> = {},
): { webhooks: WebhookDeliveryConfig } {
  const defaults = loadConfig({}).webhooks;
  return {
    webhooks: {
      ...defaults,
      caFile: receiver.certificate.certFile,
      timeoutMs: 5000,
      retryBaseMs: 20,
      retryMaxDelayMs: 200,
      pollMs: 50,
      ...overrides,
    },
  };
}

/** Verifies a received request with the standardwebhooks package; returns the parsed envelope. */
export function verifyDelivery(
  secret: string,
  request: ReceivedRequest,
): { type: string; timestamp: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(request.body, request.headers) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };
}
