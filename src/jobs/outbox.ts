import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/connection';
import { newId } from '../db/ids';
import type { DB } from '../db/schema';
import type { JobContract, PayloadOf } from './contract';
import { type Poller, startPoller } from './poller';
import type { JobEnvelope, SqlExecutor } from './queue';

/**
 * The transactional outbox (docs/design.md#jobs). Request handlers and job handlers call `enqueueJob`
 * or `emitEvent` with the transaction they are writing in; the row commits or rolls back with
 * the change that asked for it. `relayOutbox` moves committed rows to pg-boss (at least once);
 * tests use `takeOutbox` to run the same handlers inline.
 */
export interface OutboxJob<T> {
  tenantId: string;
  name: string;
  data: T;
  correlationId?: string | null;
}

/**
 * Queues one job of a contract in the caller's transaction; only the contract's payload type is
 * accepted (the payload is checked against its schema again when the job is claimed).
 */
export async function enqueue<C extends JobContract>(
  db: Kysely<DB>,
  contract: C,
  job: { tenantId: string; data: PayloadOf<C>; correlationId?: string | null },
): Promise<void> {
  await enqueueJob(db, { ...job, name: contract.name });
}

/** One outbox row by name: events' rows, and tests of the outbox itself. */
export async function enqueueJob<T>(db: Kysely<DB>, job: OutboxJob<T>): Promise<void> {
  await db
    .insertInto('job_outbox')
    .values({
      tenant_id: job.tenantId,
      id: newId(),
      job_name: job.name,
      correlation_id: job.correlationId ?? null,
      data: JSON.stringify(job.data),
    })
    .execute();
}

/**
 * Which jobs each event starts. Declared once, as data, by the composition root
 * (src/background-jobs.ts) and handed to whatever relays the outbox; nothing subscribes at run time.
 * An event nobody subscribes to may be left out (its rows are dropped by the relay). The events
 * and their payloads belong to the domains (src/domains/events.ts); here an event is a name.
 */
export type EventSubscriptions = Readonly<Partial<Record<string, readonly string[]>>>;

// Event rows carry this prefix in job_name: job names and event names never collide.
const EVENT_ROW_PREFIX = 'event:';

/** The job_name of an event's outbox rows. */
export function eventRowName(event: string): string {
  return `${EVENT_ROW_PREFIX}${event}`;
}

/**
 * Records an event in the caller's transaction: one outbox row, which the relay turns into one
 * job per subscriber, so subscribers run independently and each retries on its own.
 */
export async function enqueueEvent(
  db: Kysely<DB>,
  event: string,
  payload: { tenantId: string; data: unknown; correlationId?: string | null },
): Promise<void> {
  await enqueueJob(db, { ...payload, name: `${EVENT_ROW_PREFIX}${event}` });
}

/**
 * The same event for several tenants in one statement: a change to shared knowledge (the
 * package catalogue, the advisory store) fans out to the tenants it concerns (set-based).
 */
export async function enqueueEventToTenants(
  db: Kysely<DB>,
  event: string,
  tenantIds: readonly string[],
  data: unknown,
  correlationId: string | null = null,
): Promise<number> {
  if (tenantIds.length === 0) return 0;
  const rows = tenantIds.map((tenantId) => ({
    tenant_id: tenantId,
    id: newId(),
    job_name: `${EVENT_ROW_PREFIX}${event}`,
    correlation_id: correlationId,
    data: JSON.stringify(data),
  }));
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto('job_outbox')
      .values(rows.slice(i, i + 1000))
      .execute();
  }
  return rows.length;
}

// A batch row holds an array of one event's payloads; the relay expands it into the same jobs
// as one event row per payload (subscribers see the same events either way).
const BATCH_ROW_PREFIX = 'events:';
const EVENT_CHUNK = 5000;

/**
 * Records several events of one kind in the caller's transaction: one outbox row per chunk of
 * up to 5,000 (a batch), which the relay expands into one job per event and subscriber, exactly
 * as if each event had its own row. Measured on the embedded database: a first policy evaluation's
 * 5,589 `policy_violation.opened` events cost ~190 ms of CPU as one row each (docs/benchmarks.md).
 */
export async function enqueueEvents(
  db: Kysely<DB>,
  event: string,
  payload: { tenantId: string; data: readonly unknown[]; correlationId?: string | null },
): Promise<void> {
  for (let start = 0; start < payload.data.length; start += EVENT_CHUNK) {
    await enqueueJob(db, {
      tenantId: payload.tenantId,
      name: `${BATCH_ROW_PREFIX}${event}`,
      data: payload.data.slice(start, start + EVENT_CHUNK),
      correlationId: payload.correlationId ?? null,
    });
  }
}

/**
 * The events an outbox row holds, as `{ event, data }`: one for an event row, each payload of a
 * batch row, none for a job row.
 */
export function eventsOfRow(jobName: string, data: unknown): { event: string; data: unknown }[] {
  if (jobName.startsWith(EVENT_ROW_PREFIX)) {
    return [{ event: jobName.slice(EVENT_ROW_PREFIX.length), data }];
  }
  if (jobName.startsWith(BATCH_ROW_PREFIX) && Array.isArray(data)) {
    const event = jobName.slice(BATCH_ROW_PREFIX.length);
    return data.map((item: unknown) => ({ event, data: item }));
  }
  return [];
}

/** A committed event not relayed yet: the jobs it starts are not queued yet. */
export interface EventWaiting {
  id: string;
  event: string;
  data: unknown;
  createdAt: Date;
}

/**
 * The committed single-event rows of these events (in the caller's tenant transaction) whose
 * payload's `repositoryId` is this one, oldest first: work asked for and not queued yet. Events
 * emitted in batches (`emitEvents`) are not looked at.
 */
export async function eventsWaiting(
  db: Kysely<DB>,
  events: readonly string[],
  repositoryId: string,
): Promise<EventWaiting[]> {
  if (events.length === 0) return [];
  const rows = await db
    .selectFrom('job_outbox')
    .select(['id', 'job_name', 'data', 'created_at'])
    .where('job_name', 'in', events.map(eventRowName))
    .where(sql<string>`data->>'repositoryId'`, '=', repositoryId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    event: row.job_name.slice(EVENT_ROW_PREFIX.length),
    data: row.data,
    createdAt: row.created_at,
  }));
}

/** The jobs one outbox row becomes: itself, or one per subscriber of its event (maybe none). */
export function jobsOfRow(jobName: string, subscriptions: EventSubscriptions): readonly string[] {
  if (!jobName.startsWith(EVENT_ROW_PREFIX)) return [jobName];
  const event = jobName.slice(EVENT_ROW_PREFIX.length);
  return Object.hasOwn(subscriptions, event) ? (subscriptions[event] ?? []) : [];
}

interface OutboxRow {
  tenant_id: string;
  id: string;
  job_name: string;
  correlation_id: string | null;
  data: unknown;
}

function envelopeOf(row: OutboxRow): Omit<JobEnvelope<unknown>, 'version'> {
  return { tenantId: row.tenant_id, correlationId: row.correlation_id, data: row.data };
}

/** The jobs one outbox row becomes, with their envelopes (a batch row: per event, in order). */
function expandRow(
  row: OutboxRow,
  subscriptions: EventSubscriptions,
): { name: string; envelope: Omit<JobEnvelope<unknown>, 'version'> }[] {
  if (!row.job_name.startsWith(BATCH_ROW_PREFIX)) {
    const envelope = envelopeOf(row);
    return jobsOfRow(row.job_name, subscriptions).map((name) => ({ name, envelope }));
  }
  return eventsOfRow(row.job_name, row.data).flatMap(({ event, data }) => {
    const envelope = { ...envelopeOf(row), data };
    return jobsOfRow(`${EVENT_ROW_PREFIX}${event}`, subscriptions).map((name) => ({
      name,
      envelope,
    }));
  });
}

/** What one relay pass does with an outbox row: the jobs to send, and what stays behind. */
interface RowPlan {
  jobs: { name: string; envelope: Omit<JobEnvelope<unknown>, 'version'> }[];
  /** The payloads of a batch row left for the next pass; null when the row is done. */
  remaining: unknown[] | null;
}

/**
 * Fits a row into what is left of a pass's job budget. A row whose jobs fit goes whole. A batch
 * row that does not fit is split: the events whose jobs fit are sent and the rest stay in the row
 * (same place in the order) for the next pass. A single event row is never split; it goes whole
 * when it is the pass's first row. Returns null when the row must wait for the next pass.
 */
function planRow(
  row: OutboxRow,
  subscriptions: EventSubscriptions,
  budget: number,
  first: boolean,
): RowPlan | null {
  const jobs = expandRow(row, subscriptions);
  if (jobs.length <= budget) return { jobs, remaining: null };
  const payloads = row.data;
  if (!row.job_name.startsWith(BATCH_ROW_PREFIX) || !Array.isArray(payloads)) {
    return first ? { jobs, remaining: null } : null;
  }
  const perEvent = jobs.length / payloads.length;
  const take = Math.floor(budget / perEvent);
  if (take === 0 && !first) return null;
  const sent = Math.max(1, take);
  return {
    jobs: jobs.slice(0, sent * perEvent),
    remaining: sent < payloads.length ? payloads.slice(sent) : null,
  };
}

/**
 * Jobs per relay transaction: 500 held the embedded database's one connection for 1.6 s under
 * load while a large scan's enrichment chunks were relayed; the poller comes back at once.
 */
export const RELAY_JOB_BUDGET = 100;

/**
 * Sends committed outbox rows to the queue, up to `jobBudget` jobs, and deletes (or, for a batch
 * row cut by the budget, shortens) them in the same system transaction; SKIP LOCKED lets several
 * processes relay at once. The budget bounds the transaction: one batch row can hold 5,000 events
 * (`emitEvents`, src/domains/events.ts), each a job per subscriber, and on the embedded database the relay's transaction
 * holds the only connection. Returns how many rows it moved or shortened (more than 0: the poller
 * comes back at once). The queues must exist beforehand (`JobQueue.prepare`): creating one inside
 * the transaction would need another connection.
 */
export async function relayOutbox(
  database: Database,
  subscriptions: EventSubscriptions,
  send: (
    name: string,
    envelope: Omit<JobEnvelope<unknown>, 'version'>,
    db: SqlExecutor,
  ) => Promise<unknown>,
  jobBudget = RELAY_JOB_BUDGET,
): Promise<number> {
  // The job pool: on PostgreSQL the relay never takes a request's connection.
  const client = await database.jobs.pool.connect();
  // `send` writes through this transaction's client: the jobs and the removal of their outbox
  // rows commit together (exactly once), and the embedded database, which serves one open
  // transaction at a time, is never asked for a second connection meanwhile (a deadlock).
  const db: SqlExecutor = {
    executeSql: async (text, values) => {
      const result = await client.query(text, values as unknown[]);
      return { rows: result.rows };
    },
  };
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<OutboxRow>(
      `SELECT tenant_id, id, job_name, correlation_id, data FROM job_outbox
       ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [jobBudget],
    );
    let budget = jobBudget;
    const done: string[] = [];
    let moved = 0;
    for (const row of rows) {
      const plan = planRow(row, subscriptions, budget, moved === 0);
      if (!plan) break;
      for (const { name, envelope } of plan.jobs) await send(name, envelope, db);
      budget -= plan.jobs.length;
      moved += 1;
      if (plan.remaining === null) {
        done.push(row.id);
        continue;
      }
      await client.query(
        'UPDATE job_outbox SET data = $1::jsonb WHERE tenant_id = $2 AND id = $3',
        [JSON.stringify(plan.remaining), row.tenant_id, row.id],
      );
      break;
    }
    if (done.length > 0) {
      await client.query('DELETE FROM job_outbox WHERE id = ANY($1::uuid[])', [done]);
    }
    await client.query('COMMIT');
    return moved;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export type OutboxRelay = Poller;

/**
 * Relays every `intervalMs` in the background (jobs/poller.ts: ticks never overlap, and `stop`
 * awaits the tick in flight, so closing the pools afterwards is safe). A tick that moved rows is
 * followed by the next at once, so a backlog drains in budget-sized transactions without waiting
 * a poll between them; an empty tick waits the interval.
 */
export function startOutboxRelay(
  database: Database,
  subscriptions: EventSubscriptions,
  send: Parameters<typeof relayOutbox>[2],
  onError: (error: unknown) => void,
  intervalMs = 500,
): OutboxRelay {
  return startPoller({
    intervalMs,
    pass: () => relayOutbox(database, subscriptions, send),
    onError,
  });
}

/** Removes and returns committed outbox rows (tests run their handlers inline). */
export async function takeOutbox(
  database: Database,
  subscriptions: EventSubscriptions,
): Promise<{ name: string; envelope: JobEnvelope<unknown> }[]> {
  const { rows } = await database.pool.query<OutboxRow>(
    `DELETE FROM job_outbox WHERE id IN (SELECT id FROM job_outbox ORDER BY created_at, id)
     RETURNING tenant_id, id, job_name, correlation_id, data, created_at`,
  );
  return rows
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .flatMap((row) =>
      expandRow(row, subscriptions).map(({ name, envelope }) => ({
        name,
        envelope: { version: 1 as const, ...envelope },
      })),
    );
}
