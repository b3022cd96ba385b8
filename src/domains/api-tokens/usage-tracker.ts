import { sql } from 'kysely';
import type { Database } from '../../db/connection';

/**
 * Records `lastUsedAtUtc` without a write per request: uses are collected in memory and flushed
 * in one UPDATE per interval. Reads overlay the pending values of this process.
 */
export interface TokenUsageTracker {
  touch: (tokenId: string, tenantId: string) => void;
  /** The newest use this process has not written yet. */
  pending: (tokenId: string) => Date | undefined;
  flush: () => Promise<void>;
  start: (intervalSeconds: number) => void;
  stop: () => Promise<void>;
}

export function createTokenUsageTracker(database: Database): TokenUsageTracker {
  let uses = new Map<string, { tenantId: string; at: Date }>();
  let timer: NodeJS.Timeout | null = null;
  // The timer's flush in flight: `stop` awaits it, so no write reaches a closed pool.
  let ticking: Promise<void> = Promise.resolve();

  const flush = async () => {
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

  return {
    touch(tokenId, tenantId) {
      uses.set(tokenId, { tenantId, at: new Date() });
    },
    pending(tokenId) {
      return uses.get(tokenId)?.at;
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
