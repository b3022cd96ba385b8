import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually';
import {
  apiClient,
  prepareServiceDatabase,
  type ServiceDatabase,
  type ServiceProcess,
  serviceEnv,
  sleep,
  startServiceProcess,
} from '../support/service-process';
import {
  startWebhookReceiver,
  verifyDelivery,
  type WebhookReceiver,
} from '../support/webhook-receiver';

/**
 * Webhook deliveries end to end over real HTTPS (docs/integrations.md#delivery): a running
 * service (API and worker in one process) posts to a local receiver with a self-signed
 * certificate, trusted only through the explicit test switches (the loopback allow-list and
 * WEBHOOK_CA_FILE). The receiver answers 500 three times, then is down, the service is killed
 * with SIGKILL between attempts, a new one starts, the receiver comes back answering 200:
 * every event arrives, verified with the standardwebhooks package, none lost. Embedded
 * database, or PostgreSQL with TEST_DATABASE_URL.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const engine = serverUrl ? 'PostgreSQL' : 'embedded';
const EVENTS = 5;

async function until<T>(what: string, read: () => Promise<T | null>, ms: number): Promise<T> {
  return (await eventually(read, { what, timeoutMs: ms, intervalMs: 100 })) as T;
}

describe(`webhook deliveries survive failures and kill -9 (${engine})`, () => {
  let database: ServiceDatabase;
  let receiver: WebhookReceiver;
  const services: ServiceProcess[] = [];

  beforeAll(async () => {
    database = await prepareServiceDatabase(serverUrl, 'Webhooks');
    receiver = await startWebhookReceiver();
  }, 60_000);

  afterAll(async () => {
    for (const service of services) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await receiver?.close();
    await database?.remove();
  });

  it('delivers every event, verified, once the receiver recovers', async () => {
    const env = serviceEnv({
      ...database.env,
      OUTBOUND_ALLOW_WEBHOOK_CIDRS: '127.0.0.0/8',
      WEBHOOK_CA_FILE: receiver.certificate.certFile,
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_BASE_MS: '300',
      WEBHOOK_RETRY_MAX_DELAY_MS: '1500',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_MAX_ATTEMPTS: '60',
    });
    const doomed = await startServiceProcess(env);
    services.push(doomed);
    const token = database.token ?? doomed.bootstrapToken ?? '';
    const atDoomed = apiClient(doomed.base, token);

    const created = await atDoomed('POST', '/api/v1/integrations/webhooks', {
      name: 'receiver',
      url: receiver.url,
    });
    expect(created.status).toBe(201);
    const { integrationId, secret } = created.body as { integrationId: string; secret: string };

    // 500 three times (and to anything that slips in before it goes down), then down.
    receiver.answers = [500, 500, 500];
    receiver.fallbackStatus = 500;
    const queued: string[] = [];
    for (let n = 0; n < EVENTS; n++) {
      const test = await atDoomed('POST', `/api/v1/integrations/${integrationId}/test`);
      expect(test.status).toBe(202);
      queued.push(test.body.deliveryId);
    }
    await until('three 500s', async () => (receiver.received.length >= 3 ? true : null), 30_000);
    await receiver.down();
    const log = `/api/v1/integrations/${integrationId}/deliveries?take=50`;
    // Attempts against the closed port are recorded as unreachable: the service is retrying.
    await until(
      'an attempt while the receiver is down',
      async () => {
        const items = (await atDoomed('GET', log)).body.items as Array<{
          attempts: Array<{ error: string | null }>;
        }>;
        const unreachable = items.some((item) =>
          item.attempts.some((a) => a.error === 'the receiver could not be reached'),
        );
        return unreachable ? true : null;
      },
      30_000,
    );

    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const pendingAtKill = receiver.received.length;
    await sleep(1000);
    receiver.fallbackStatus = 200;
    await receiver.up();
    const survivor = await startServiceProcess(env);
    services.push(survivor);
    const atSurvivor = apiClient(survivor.base, token);

    const finished = await until(
      'every delivery to succeed',
      async () => {
        const items = (await atSurvivor('GET', log)).body.items as Array<{
          deliveryId: string;
          status: string;
          attemptCount: number;
          attempts: Array<{ statusCode: number | null; error: string | null }>;
        }>;
        return items.length === EVENTS && items.every((item) => item.status === 'succeeded')
          ? items
          : null;
      },
      90_000,
    );
    expect(finished.map((item) => item.deliveryId).sort()).toEqual([...queued].sort());
    for (const item of finished) {
      expect(item.attempts.at(-1)?.statusCode).toBe(200);
    }
    // An attempt cut short by the kill counts, but left no record: it was retried after its lease.
    const cutShort = finished.filter((item) => item.attemptCount > item.attempts.length).length;

    // Every event arrived with a 200, verified by the standardwebhooks verifier; none lost.
    const accepted = receiver.received.filter((request) => request.answered === 200);
    const arrived = new Set<string>();
    for (const request of accepted) {
      const envelope = verifyDelivery(secret, request);
      expect(envelope.type).toBe('integration.test');
      arrived.add(request.headers['webhook-id'] ?? '');
    }
    expect([...arrived].sort()).toEqual([...queued].sort());
    expect(receiver.received.slice(0, 3).map((request) => request.answered)).toEqual([
      500, 500, 500,
    ]);
    console.log(
      `${engine}: ${receiver.received.length} requests (${pendingAtKill} before kill -9), ` +
        `${accepted.length} accepted for ${EVENTS} events, ${cutShort} attempts cut short; ` +
        `failed attempts: ${JSON.stringify(finished.flatMap((i) => i.attempts.map((a) => a.error)).filter(Boolean))}`,
    );
  }, 240_000);
});
