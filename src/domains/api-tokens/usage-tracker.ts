import { sql } from 'kysely';
import type { Database } from '../../db/connection';

/**
 * Records `lastUsedAtUtc` and the tenant's API calls per minute without a write per request:
 * uses are collected in memory and flushed in one statement each per interval. Reads overlay the
 * pending values of this process.
 */
export interface TokenUsageTracker {
  touch: (tokenId: string, tenantId: string) => void;
  /** The newest use this process has not written yet. */
  pending: (tokenId: string) => Date | undefined;
  /** Calls of the tenant counted by this process since `since` and not written yet. */
  pendingCalls: (tenantId: string, since: Date) => number;
  flush: () => Promise<void>;
  start: (intervalSeconds: number) => void;
  stop: () => Promise<void>;
}

const MINUTE_MS = 60_000;

/** Calls per `tenantId minuteStartMs` key. */
type CallCounts = Map<string, number>;

/** Adds the counted calls to `tenant_api_calls`, skipping tenants deleted meanwhile. */
async function flushCalls(database: Database, counts: CallCounts): Promise<void> {
  if (counts.size === 0) return;
  const rows = [...counts.entries()].map(([key, calls]) => {
    const [tenantId, minute] = key.split(' ');
    return sql`(${tenantId}::uuid, ${new Date(Number(minute)).toISOString()}::timestamptz, ${calls}::integer)`;
  });
  await sql`INSERT INTO tenant_api_calls (tenant_id, minute, calls)
    SELECT v.tenant_id, v.minute, v.calls FROM (VALUES ${sql.join(rows)}) AS v(tenant_id, minute, calls)
    JOIN tenants n ON n.id = v.tenant_id
    ON CONFLICT (tenant_id, minute) DO UPDATE SET calls = tenant_api_calls.calls + excluded.calls`.execute(
    database.system,
  );
}

export function createTokenUsageTracker(database: Database): TokenUsageTracker {
  let uses = new Map<string, { tenantId: string; at: Date }>();
  let calls: CallCounts = new Map();
  let timer: NodeJS.Timeout | null = null;
  // The timer's flush in flight: `stop` awaits it, so no write reaches a closed pool.
  let ticking: Promise<void> = Promise.resolve();

  const flushCallCounts = async () => {
    const batch = calls;
    calls = new Map();
    try {
      await flushCalls(database, batch);
    } catch (error) {
      for (const [key, count] of batch) calls.set(key, (calls.get(key) ?? 0) + count);
      throw error;
    }
  };

  const flushUses = async () => {
    if (uses.size === 0) return;
    const batch = uses;
    uses = new Map();
    const rows = [...batch.entries()].map(
      ([id, use]) =>
        sql`(${use.tenantId}::uuid, ${id}::uuid, ${use.at.toISOString()}::timestamptz)`,
    );
    try {
      // System connection: one statement updates tokens of many tenants.
      await sql`UPDATE api_tokens AS t SET last_used_at = v.at
        FROM (VALUES ${sql.join(rows)}) AS v(tenant_id, id, at)
        WHERE t.tenant_id = v.tenant_id AND t.id = v.id
          AND (t.last_used_at IS NULL OR t.last_used_at < v.at)`.execute(database.system);
    } catch (error) {
      // Keep the uses for the next attempt, unless newer ones arrived meanwhile.
      for (const [id, use] of batch) if (!uses.has(id)) uses.set(id, use);
      throw error;
    }
  };

  const flush = async () => {
    // One after the other (the embedded database serves one statement at a time anyway); a
    // failure of one still lets the other write.
    const failures: unknown[] = [];
    await flushUses().catch((error) => failures.push(error));
    await flushCallCounts().catch((error) => failures.push(error));
    if (failures.length > 0) throw failures[0];
  };

  return {
    touch(tokenId, tenantId) {
      const at = new Date();
      uses.set(tokenId, { tenantId, at });
      const key = `${tenantId} ${Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS}`;
      calls.set(key, (calls.get(key) ?? 0) + 1);
    },
    pending(tokenId) {
      return uses.get(tokenId)?.at;
    },
    pendingCalls(tenantId, since) {
      let total = 0;
      for (const [key, count] of calls) {
        const [id, minute] = key.split(' ');
        if (id === tenantId && Number(minute) + MINUTE_MS > since.getTime()) total += count;
      }
      return total;
    },
    flush,
    start(intervalSeconds) {
      timer = setInterval(() => {
        ticking = flush().catch(() => {});
      }, intervalSeconds * 1000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await ticking;
      await flush().catch(() => {});
    },
  };
}
