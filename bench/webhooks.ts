/**
 * `npm run bench:webhooks`: outbound webhook deliveries (docs/integrations.md) from a real worker
 * (startService, role worker: outbox relay, pg-boss attempt jobs, the due-delivery dispatcher,
 * default settings) to a local HTTPS receiver (self-signed, trusted through WEBHOOK_CA_FILE, the
 * tests' switch). Each event is queued with queueEventDeliveries in its own committed tenant
 * transaction, as a change would; its delay is from that commit to the receiver's arrival.
 * - backlog: BENCH_WEBHOOK_EVENTS (default 500) events queued in one transaction, all due at
 *   once: events/s delivered from the commit to the last arrival;
 * - paced: BENCH_WEBHOOK_PACED (default 100) events, one every 50 ms: delay p50/p99 at low load.
 * The embedded database by default; PostgreSQL with TEST_DATABASE_URL (a scratch database).
 * Figures: docs/benchmarks.md, section "Webhooks (npm run bench:webhooks)".
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { loadConfig } from '../src/config';
import { newId } from '../src/db/ids';
import { withTenant } from '../src/db/tenant-scope';
import { queueEventDeliveries } from '../src/domains/integrations/deliver';
import { createSecretBox } from '../src/security/secret-box';
import { type RunningService, startService } from '../src/service';
import { prepareServiceDatabase, sleep } from '../test/support/service-process';
import { startWebhookReceiver, type WebhookReceiver } from '../test/support/webhook-receiver';
import { writeBenchmarkSection } from './report';

const serverUrl = process.env.TEST_DATABASE_URL;
const engine = serverUrl ? 'PostgreSQL' : 'embedded';
const BURST = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 500);
const PACED = Number(process.env.BENCH_WEBHOOK_PACED ?? 100);

interface Run {
  events: number;
  seconds: number;
  /** Seconds the commits took (the rate at which changes happened). */
  queueSeconds: number;
  delays: number[];
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/**
 * Queues `count` events — each in its own transaction with a pause of `gapMs` between them, or
 * all in one transaction (`gapMs` null: a backlog due at once) — and waits until all arrived.
 */
async function run(
  service: RunningService,
  receiver: WebhookReceiver,
  context: { tenantId: string; integrationId: string; label: string },
  count: number,
  gapMs: number | null,
): Promise<Run> {
  const committed = new Map<string, number>();
  const arrived = new Map<string, number>();
  const seen = receiver.received.length;
  const started = Date.now();
  const queue = (db: Parameters<typeof queueEventDeliveries>[0], seq: string) =>
    queueEventDeliveries(db, {
      integrationIds: [context.integrationId],
      eventType: 'bench.event',
      payload: { seq },
    });
  const seqs = Array.from({ length: count }, (_, n) => `${context.label}-${n}`);
  if (gapMs === null) {
    await withTenant(service.database, context.tenantId, async (db) => {
      for (const seq of seqs) await queue(db, seq);
    });
    for (const seq of seqs) committed.set(seq, Date.now());
  } else {
    for (const seq of seqs) {
      await withTenant(service.database, context.tenantId, (db) => queue(db, seq));
      committed.set(seq, Date.now());
      if (gapMs > 0) await sleep(gapMs);
    }
  }
  const queueSeconds = (Date.now() - started) / 1000;
  const deadline = Date.now() + 300_000;
  while (arrived.size < count) {
    if (Date.now() > deadline) throw new Error(`${count - arrived.size} events never arrived`);
    for (const request of receiver.received.slice(seen)) {
      const seq = (JSON.parse(request.body) as { data: { seq: string } }).data.seq;
      if (committed.has(seq) && !arrived.has(seq)) arrived.set(seq, request.at);
    }
    await sleep(20);
  }
  const last = Math.max(...arrived.values());
  const delays = [...arrived].map(([seq, at]) => at - (committed.get(seq) ?? at));
  // A backlog counts from its commit; paced events from the first commit.
  const from = gapMs === null ? started + queueSeconds * 1000 : started;
  return { events: count, seconds: (last - from) / 1000, queueSeconds, delays };
}

async function main(): Promise<void> {
  const database = await prepareServiceDatabase(serverUrl, 'Bench');
  const receiver = await startWebhookReceiver();
  const masterKey = randomBytes(32).toString('base64');
  const config = loadConfig({
    ...database.env,
    DRIFTWATCH_MASTER_KEY: masterKey,
    LOG_LEVEL: 'warn',
    OSV_FEED_URL: 'off',
    REGISTRY_CLIENT_DEFAULTS: 'false',
    OUTBOUND_ALLOW_WEBHOOK_CIDRS: '127.0.0.0/8',
    WEBHOOK_CA_FILE: receiver.certificate.certFile,
  });
  const service = await startService(config, 'worker');
  const load = (loadavg()[0] ?? 0).toFixed(2);
  try {
    const tenant = await service.database.system
      .selectFrom('tenants')
      .select('id')
      .executeTakeFirstOrThrow();
    const integrationId = newId();
    await withTenant(service.database, tenant.id, (db) =>
      db
        .insertInto('integrations')
        .values({
          id: integrationId,
          name: 'bench',
          url: receiver.url,
          secret_sealed: createSecretBox(masterKey).seal(
            `whsec_${randomBytes(32).toString('base64')}`,
          ),
        })
        .execute(),
    );
    const context = { tenantId: tenant.id, integrationId };
    await run(service, receiver, { ...context, label: 'warm' }, 20, 0);
    const burst = await run(service, receiver, { ...context, label: 'burst' }, BURST, null);
    const paced = await run(service, receiver, { ...context, label: 'paced' }, PACED, 50);
    const row = (name: string, r: Run) =>
      `| ${name} | ${r.events} | ${(r.events / r.queueSeconds).toFixed(0)} | ${(r.events / r.seconds).toFixed(0)} | ${percentile(r.delays, 50)} | ${percentile(r.delays, 99)} | ${Math.max(...r.delays)} |`;
    const table = [
      '| run | events | events/s committed | events/s delivered | delay p50 ms | delay p99 ms | max ms |',
      '|---|---:|---:|---:|---:|---:|---:|',
      row('backlog (queued in one transaction)', burst),
      row('paced (one every 50 ms)', paced),
    ].join('\n');
    console.log(`${engine}\n${table}`);
    writeBenchmarkSection(
      `Webhooks (npm run bench:webhooks, ${engine})`,
      `A worker (\`startService\`, role worker, default settings: pg-boss polling 2 s, dispatcher every \`WEBHOOK_POLL_MS\` = ${config.webhooks.pollMs} ms, at once again after a pass that found work) delivering to a local HTTPS receiver on 127.0.0.1 (self-signed, a new TLS connection per attempt: the pinned agent pools nothing). Backlog: all events queued by \`queueEventDeliveries\` in one transaction, delivered/s from its commit to the last arrival. Paced: one committed transaction per event, as changes come. Delay = receiver arrival − commit. ${engine} database, Node ${process.version}, 2-core machine shared with other work, load average at start ${load}, measured ${new Date().toISOString().slice(0, 10)}.\n\n${table}`,
    );
  } finally {
    await service.stop();
    await receiver.close();
    await database.remove();
  }
}

await main();
