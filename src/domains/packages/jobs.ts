import { type Kysely, sql } from 'kysely';
import { Type } from 'typebox';
import type { DB } from '../../db/schema';
import { withTenant } from '../../db/tenant-scope';
import { createRegistryClients } from '../../ecosystems/registry-clients';
import {
  type EnrichmentSummary,
  enrichPackages,
  packageRefs,
  type RegistryClients,
  refreshDuePackages,
} from '../../intel/package-catalogue/enrichment';
import { markDue, missingOrStale } from '../../intel/package-catalogue/store';
import { defineJob, jobDefinition, type PayloadOf } from '../../jobs/contract';
import { enqueue } from '../../jobs/outbox';
import type { JobDefinition } from '../../jobs/queue';
import { snapshotDriftInPieces } from '../drift/pieces';
import { pendingSnapshots } from '../drift/service';
import type { JobDeps } from '../job-deps';
import { emitCatalogueEvents } from './catalogue-events';
import { observeClients } from './observed-clients';

/**
 * Package-intelligence jobs (docs/package-intelligence.md#enrichment):
 * - `packages.dependencies-changed` (subscribed to `dependencies.changed`): snapshots the scan's
 *   drift at once, marks its missing or stale packages due and queues `packages.enrich` jobs;
 * - `packages.enrich`: fetches one chunk of packages, then recomputes that scan's drift;
 * - `packages.refresh` (every minute, no tenant): fetches due packages (Retry-After deferrals,
 *   failures backing off) and stale packages still in use, and completes drift snapshots that
 *   were waiting for them.
 */
export const DEPENDENCIES_CHANGED = defineJob({
  name: 'packages.dependencies-changed',
  // The `dependencies.changed` payload.
  payload: Type.Object({ repositoryId: Type.String(), scanId: Type.String() }),
  expireInSeconds: 600,
  retryLimit: 5,
});
export const ENRICH = defineJob({
  name: 'packages.enrich',
  payload: Type.Object({
    packageIds: Type.Array(Type.String()),
    repositoryId: Type.Union([Type.String(), Type.Null()]),
    scanId: Type.Union([Type.String(), Type.Null()]),
    /**
     * Fetch order (docs/package-intelligence.md#enrichment-scheduling): minus the chunks of the
     * tenant waiting ahead of this one, so each tenant's next chunk goes before anyone's later ones.
     */
    priority: Type.Optional(Type.Integer()),
  }),
  expireInSeconds: 900,
  retryLimit: 5,
  sendOptions: ({ data }) => (data.priority !== undefined ? { priority: data.priority } : {}),
});
export const REFRESH = defineJob({
  name: 'packages.refresh',
  payload: Type.Object({}),
  expireInSeconds: 900,
  retryLimit: 1,
  schedule: '* * * * *',
});
/**
 * A scan's snapshot is recomputed at most this often while its enrichment runs (and once after
 * the last chunk): recomputing it after every chunk cost a whole snapshot per 50 packages.
 */
export const DRIFT_SNAPSHOT_DELAY_SECONDS = 15;
/**
 * Recomputes one scan's drift snapshot, in pieces. One waiting job per scan (the `short` policy
 * drops a request while one waits), started a little later so that the chunks finishing
 * meanwhile are all in it.
 */
export const DRIFT_SNAPSHOT = defineJob({
  name: 'packages.drift-snapshot',
  payload: Type.Object({ repositoryId: Type.String(), scanId: Type.String() }),
  expireInSeconds: 900,
  retryLimit: 5,
  policy: 'short',
  sendOptions: (envelope) => ({
    singletonKey: `${envelope.tenantId}:${envelope.data.scanId}`,
    startAfterSeconds: DRIFT_SNAPSHOT_DELAY_SECONDS,
  }),
});

export type EnrichJobData = PayloadOf<typeof ENRICH>;
export type DriftSnapshotJobData = PayloadOf<typeof DRIFT_SNAPSHOT>;

type Registry = () => RegistryClients;

type Reachability = (summary: EnrichmentSummary) => void;

/**
 * Warns once when a registry stops answering (its packages stay pending, retried), and says when
 * it answers again: a pass's INFO line alone hides an outage (docs/package-intelligence.md).
 */
function reachabilityWarnings(deps: JobDeps): Reachability {
  const warned = new Set<string>();
  const warn = deps.warn ?? deps.log;
  return (summary) => {
    for (const [ecosystem, reason] of summary.unreachable) {
      if (warned.has(ecosystem)) continue;
      warned.add(ecosystem);
      const url = deps.config.registries.baseUrls[ecosystem];
      warn(
        `the ${ecosystem} registry at ${url} cannot be reached (${reason}): its packages stay pending and are retried`,
        { ecosystem, url },
      );
    }
    for (const ecosystem of summary.answered) {
      if (warned.delete(ecosystem)) deps.log(`the ${ecosystem} registry answers again`);
    }
  };
}

export function packageJobs(deps: JobDeps, clients?: RegistryClients): JobDefinition[] {
  let built: RegistryClients | undefined = clients;
  const reachability = reachabilityWarnings(deps);
  // Built on first use: the clients share one HTTP layer and response cache per process.
  const registry = () => {
    built ??= observeClients(createRegistryClients(deps.config.registries), deps.observe);
    return built;
  };
  return [
    dependenciesChangedJob(deps),
    enrichJob(deps, registry, reachability),
    refreshJob(deps, registry, reachability),
    driftSnapshotJob(deps),
  ];
}

/** The registry packages a scan found (ids), each once, read in pages (one transaction each). */
async function scannedRegistryPackages(
  database: JobDeps['database'],
  tenantId: string,
  repositoryId: string,
  scanId: string,
): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const after = ids.at(-1);
    const page = await withTenant(database, tenantId, (db) => {
      let query = db
        .selectFrom('repository_dependencies')
        .select('package_id')
        .distinct()
        .where('repository_id', '=', repositoryId)
        .where('scan_id', '=', scanId)
        // Only registry packages: a git/path/url dependency's name is not the registry's to
        // know, and asking would leak private names to a public registry.
        .where((eb) => eb(eb.ref('source', '->>').key('kind'), '=', 'registry'));
      if (after) query = query.where('package_id', '>', after);
      return query.orderBy('package_id').limit(SCANNED_PAGE).execute();
    });
    ids.push(...page.map((r) => r.package_id));
    if (page.length < SCANNED_PAGE) return ids;
  }
}

const SCANNED_PAGE = 5000;

function dependenciesChangedJob(deps: JobDeps): JobDefinition {
  const settings = deps.config.packageIntel;
  const system = deps.database.system;
  return jobDefinition(DEPENDENCIES_CHANGED, async ({ tenantId, correlationId, data }) => {
    if (!tenantId) return;
    const { repositoryId, scanId } = data;
    await snapshotDriftInPieces(deps.database, { tenantId, repositoryId, scanId }, settings);
    const ids = await scannedRegistryPackages(deps.database, tenantId, repositoryId, scanId);
    const staleBefore = new Date(Date.now() - settings.staleAfterHours * 3_600_000);
    const needed = await missingOrStale(system, ids, staleBefore);
    if (needed.length === 0) return;
    const refs = await packageRefs(system, needed);
    await markDue(system, refs, new Date());
    const ahead = await waitingChunks(system, tenantId);
    const size = settings.enrichChunkSize;
    // In pieces too: 158,877 packages are 3,178 jobs.
    for (let first = 0; first < needed.length; first += size * 200) {
      await withTenant(deps.database, tenantId, async (db) => {
        const last = Math.min(needed.length, first + size * 200);
        for (let i = first; i < last; i += size) {
          await enqueue(db, ENRICH, {
            tenantId,
            correlationId,
            data: {
              packageIds: needed.slice(i, i + size),
              repositoryId,
              scanId,
              priority: -(ahead + i / size),
            },
          });
        }
      });
    }
  });
}

/**
 * The tenant's enrichment chunks still waiting (system connection: pg-boss's table). Each
 * tenant's chunks count from its own backlog, so a small scan's first chunk is fetched before
 * the later chunks of another tenant's large one: round robin between tenants, by chunk.
 */
async function waitingChunks(system: Kysely<DB>, tenantId: string): Promise<number> {
  const result = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM pgboss.job
     WHERE name = ${ENRICH.name} AND state IN ('created', 'retry')
       AND data->>'tenantId' = ${tenantId}`
    .execute(system)
    .catch(() => ({ rows: [] as { n: number }[] }));
  return result.rows[0]?.n ?? 0;
}

function enrichJob(deps: JobDeps, registry: Registry, reachability: Reachability): JobDefinition {
  const settings = deps.config.packageIntel;
  const system = deps.database.system;
  // PostgreSQL: a pool, so a pass's writes overlap; the embedded database takes one at a time.
  const parallelWrites = deps.database.engine === 'postgres';
  return jobDefinition(ENRICH, async ({ tenantId, correlationId, data }) => {
    const started = performance.now();
    const refs = await packageRefs(system, data.packageIds.slice(0, 1000));
    const summary = await enrichPackages(
      {
        db: system,
        clients: registry(),
        settings,
        onChange: emitCatalogueEvents,
        parallelWrites,
      },
      refs,
    );
    deps.observe?.enrichmentFinished(
      'enrich',
      summary.outcomes,
      (performance.now() - started) / 1000,
    );
    deps.log('package metadata fetched', summary.outcomes);
    reachability(summary);
    if (tenantId && data.repositoryId && data.scanId) {
      const { repositoryId, scanId } = data;
      await withTenant(deps.database, tenantId, (db) =>
        enqueue(db, DRIFT_SNAPSHOT, { tenantId, correlationId, data: { repositoryId, scanId } }),
      );
    }
  });
}

function refreshJob(deps: JobDeps, registry: Registry, reachability: Reachability): JobDefinition {
  const settings = deps.config.packageIntel;
  const system = deps.database.system;
  const parallelWrites = deps.database.engine === 'postgres';
  return jobDefinition(REFRESH, async () => {
    const started = performance.now();
    const summary = await refreshDuePackages({
      db: system,
      clients: registry(),
      settings,
      onChange: emitCatalogueEvents,
      parallelWrites,
    });
    deps.observe?.enrichmentFinished(
      'refresh',
      summary.outcomes,
      (performance.now() - started) / 1000,
    );
    if (summary.picked > 0)
      deps.log('package metadata refreshed', { picked: summary.picked, ...summary.outcomes });
    reachability(summary);
    for (const snapshot of await pendingSnapshots(system, summary.firstFetched)) {
      await withTenant(deps.database, snapshot.tenant_id, (db) =>
        enqueue(db, DRIFT_SNAPSHOT, {
          tenantId: snapshot.tenant_id,
          data: { repositoryId: snapshot.repository_id, scanId: snapshot.scan_id },
        }),
      );
    }
  });
}

/** One scan's drift snapshot after metadata arrived, in pieces. */
function driftSnapshotJob(deps: JobDeps): JobDefinition {
  return jobDefinition(DRIFT_SNAPSHOT, async ({ tenantId, data }) => {
    if (!tenantId) return;
    await snapshotDriftInPieces(
      deps.database,
      { tenantId, repositoryId: data.repositoryId, scanId: data.scanId },
      deps.config.packageIntel,
    );
  });
}
