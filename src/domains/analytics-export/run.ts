import { readFileSync } from 'node:fs';
import type { Database } from '../../db/connection';
import { withTenant } from '../../db/tenant-scope';
import { OutboundRefusedError, outboundPolicy } from '../../security/outbound-guard';
import type { JobDeps } from '../job-deps';
import { FACTS, type Fact, type FactRow } from './facts';
import { BatchRefusedError, ndjsonOf, sendBatch } from './https-sink';
import { openPostgresSink, parseConnectionString } from './postgres-sink';
import {
  claimRun,
  findSealedDestination,
  finishRun,
  type RunOutcome,
  readWatermark,
  writeWatermark,
} from './store';

/**
 * One export run (docs/workspace.md#warehouse-export): for each fact table, batches read after
 * the destination's watermark in short tenant transactions, written to the destination with no
 * transaction held, and the watermark moved after each batch the destination accepted. A
 * failure is recorded on the run (rows, bytes, duration, errors), never thrown: a failing
 * destination's run is its own job, so it holds up no other destination.
 */
export const BATCH_ROWS = 500;

/** Writes one batch; returns the bytes it sent. */
type BatchWriter = (fact: Fact, rows: readonly FactRow[], batch: number) => Promise<number>;

interface OpenedSink {
  write: BatchWriter;
  /** An empty first batch is still written (a PostgreSQL table is created on the first run). */
  writesEmpty: boolean;
  close: () => Promise<void>;
}

/** What the tenant may read about a failure: no addresses, no ports, no error codes. */
export function failureText(error: unknown): string {
  if (error instanceof OutboundRefusedError) return error.message;
  if (error instanceof BatchRefusedError) return error.message;
  const name = (error as { name?: string }).name;
  if (name === 'TimeoutError' || name === 'AbortError') return 'timed out';
  const pgError = error as { severity?: unknown; message?: unknown };
  if (typeof pgError.severity === 'string' && typeof pgError.message === 'string') {
    return `the database answered: ${pgError.message}`;
  }
  if (/timeout/i.test(String((error as Error).message))) return 'timed out';
  return 'the destination could not be reached';
}

async function openSink(
  deps: JobDeps,
  tenantId: string,
  runId: string,
  destination: { kind: string; target: string; secret_sealed: string },
): Promise<OpenedSink> {
  const policy = outboundPolicy(deps.config, 'webhooks', tenantId);
  const timeoutMs = deps.config.webhooks.timeoutMs;
  const caFile = deps.config.webhooks.caFile;
  const ca = caFile ? readFileSync(caFile, 'utf8') : undefined;
  const secret = deps.secretBox.open(destination.secret_sealed);
  if (destination.kind === 'postgresql') {
    const sink = await openPostgresSink(parseConnectionString(secret), { policy, timeoutMs, ca });
    return {
      write: async (fact, rows) => {
        await sink.write(fact, rows);
        return Buffer.byteLength(ndjsonOf(rows));
      },
      close: sink.close,
      writesEmpty: true,
    };
  }
  return {
    write: async (fact, rows, batch) => {
      const id = `${runId}.${fact.name}.${batch}`;
      const sent = await sendBatch(
        destination.target,
        secret,
        { id, fact, rows },
        {
          policy,
          timeoutMs,
          ca,
        },
      );
      return sent.bytes;
    },
    close: async () => {},
    writesEmpty: false,
  };
}

interface Totals {
  rows: number;
  bytes: number;
  tables: Record<string, number>;
  batches: number;
}

/** Appends one fact table from the watermark on; throws the first failure. */
async function exportFact(
  database: Database,
  context: { tenantId: string; destinationId: string },
  fact: Fact,
  sink: OpenedSink,
  totals: Totals,
): Promise<void> {
  const { tenantId, destinationId } = context;
  totals.tables[fact.name] = 0;
  let mark = await withTenant(database, tenantId, (db) =>
    readWatermark(db, destinationId, fact.name),
  );
  for (let batch = 0; ; batch++) {
    const after = mark;
    const rows = await withTenant(database, tenantId, (db) =>
      fact.read(db, tenantId, after, BATCH_ROWS),
    );
    if (rows.length === 0 && !(batch === 0 && sink.writesEmpty)) return;
    totals.bytes += await sink.write(fact, rows, totals.batches++);
    if (rows.length === 0) return;
    const last = rows[rows.length - 1] as FactRow;
    mark = { at: last.at, id: last.id };
    const next = mark;
    await withTenant(database, tenantId, (db) =>
      writeWatermark(db, destinationId, fact.name, next),
    );
    totals.rows += rows.length;
    totals.tables[fact.name] = (totals.tables[fact.name] ?? 0) + rows.length;
    if (rows.length < BATCH_ROWS) return;
  }
}

/** Runs one queued run to its end. */
export async function runExport(deps: JobDeps, tenantId: string, runId: string): Promise<void> {
  const started = Date.now();
  const claimed = await withTenant(deps.database, tenantId, async (db) => {
    const run = await claimRun(db, runId);
    if (!run) return null;
    const destination = await findSealedDestination(db, run.destination_id);
    return destination ? { run, destination } : null;
  });
  if (!claimed) return;
  const { destination } = claimed;
  const totals: Totals = { rows: 0, bytes: 0, tables: {}, batches: 0 };
  const errors: string[] = [];
  let sink: OpenedSink | null = null;
  try {
    sink = await openSink(deps, tenantId, runId, destination);
    for (const fact of FACTS) {
      try {
        await exportFact(
          deps.database,
          { tenantId, destinationId: destination.id },
          fact,
          sink,
          totals,
        );
      } catch (error) {
        deps.log('export batch failed', {
          runId,
          fact: fact.name,
          error: (error as Error).message,
        });
        errors.push(`${fact.name}: ${failureText(error)}`);
      }
    }
  } catch (error) {
    deps.log('export destination failed', { runId, error: (error as Error).message });
    errors.push(failureText(error));
  } finally {
    await sink?.close();
  }
  const outcome: RunOutcome = {
    state: errors.length > 0 ? 'failed' : 'succeeded',
    rows: totals.rows,
    bytes: totals.bytes,
    durationMs: Date.now() - started,
    tables: totals.tables,
    errors,
  };
  await withTenant(deps.database, tenantId, (db) =>
    finishRun(db, { id: runId, destinationId: destination.id }, outcome),
  );
}
