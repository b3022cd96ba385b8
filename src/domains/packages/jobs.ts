import type { Kysely } from 'kysely';
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
import { type DependenciesChanged, enqueueJob } from '../../jobs/outbox';
import type { JobDefinition } from '../../jobs/queue';
import { pendingSnapshots, snapshotRepositoryDrift } from '../drift/service';
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
export const DEPENDENCIES_CHANGED_JOB = 'packages.dependencies-changed';
export const ENRICH_JOB = 'packages.enrich';
export const REFRESH_JOB = 'packages.refresh';

export interface EnrichJobData {
  packageIds: string[];
  repositoryId: string | null;
  scanId: string | null;
}

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

export function packageJobs(deps: JobDeps, clients?: RegistryClients): JobDefinition<unknown>[] {
  let built: RegistryClients | undefined = clients;
  const reachability = reachabilityWarnings(deps);
  // Built on first use: the clients share one HTTP layer and response cache per process.
  const registry = () => {
    built ??= observeClients(createRegistryClients(deps.config.registries), deps.observe);
    return built;
  };
  return [
    dependenciesChangedJob(deps) as JobDefinition<unknown>,
    enrichJob(deps, registry, reachability) as JobDefinition<unknown>,
    refreshJob(deps, registry, reachability),
  ];
}

/** The registry packages a scan found (ids), each once. */
async function scannedRegistryPackages(
  db: Kysely<DB>,
  repositoryId: string,
  scanId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('repository_dependencies')
    .select('package_id')
    .distinct()
    .where('repository_id', '=', repositoryId)
    .where('scan_id', '=', scanId)
    // Only registry packages: a git/path/url dependency's name is not the registry's to
    // know, and asking would leak private names to a public registry.
    .where((eb) => eb(eb.ref('source', '->>').key('kind'), '=', 'registry'))
    .execute();
  return rows.map((r) => r.package_id);
}

function dependenciesChangedJob(deps: JobDeps): JobDefinition<DependenciesChanged> {
  const settings = deps.config.packageIntel;
  const system = deps.database.system;
  return {
    name: DEPENDENCIES_CHANGED_JOB,
    expireInSeconds: 600,
    retryLimit: 5,
    handle: async ({ tenantId, correlationId, data }) => {
      if (!tenantId) return;
      const { repositoryId, scanId } = data;
      const ids = await withTenant(deps.database, tenantId, async (db) => {
        await snapshotRepositoryDrift(db, tenantId, repositoryId, scanId, settings);
        return scannedRegistryPackages(db, repositoryId, scanId);
      });
      const staleBefore = new Date(Date.now() - settings.staleAfterHours * 3_600_000);
      const needed = await missingOrStale(system, ids, staleBefore);
      if (needed.length === 0) return;
      const refs = await packageRefs(system, needed);
      await markDue(system, refs, new Date());
      await withTenant(deps.database, tenantId, async (db) => {
        for (let i = 0; i < needed.length; i += settings.enrichChunkSize) {
          await enqueueJob<EnrichJobData>(db, {
            tenantId,
            name: ENRICH_JOB,
            correlationId,
            data: {
              packageIds: needed.slice(i, i + settings.enrichChunkSize),
              repositoryId,
              scanId,
            },
          });
        }
      });
    },
  };
}

function enrichJob(
  deps: JobDeps,
  registry: Registry,
  reachability: Reachability,
): JobDefinition<EnrichJobData> {
  const settings = deps.config.packageIntel;
  const system = deps.database.system;
  return {
    name: ENRICH_JOB,
    expireInSeconds: 900,
    retryLimit: 5,
    handle: async ({ tenantId, data }) => {
      const started = performance.now();
      const refs = await packageRefs(system, (data.packageIds ?? []).slice(0, 1000));
      const summary = await enrichPackages(
        { db: system, clients: registry(), settings, onChange: emitCatalogueEvents },
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
          snapshotRepositoryDrift(db, tenantId, repositoryId, scanId, settings),
        );
      }
    },
  };
}

function refreshJob(
  deps: JobDeps,
  registry: Registry,
  reachability: Reachability,
): JobDefinition<unknown> {
  const settings = deps.config.packageIntel;
  const system = deps.database.system;
  return {
    name: REFRESH_JOB,
    expireInSeconds: 900,
    retryLimit: 1,
    schedule: '* * * * *',
    handle: async () => {
      const started = performance.now();
      const summary = await refreshDuePackages({
        db: system,
        clients: registry(),
        settings,
        onChange: emitCatalogueEvents,
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
          snapshotRepositoryDrift(
            db,
            snapshot.tenant_id,
            snapshot.repository_id,
            snapshot.scan_id,
            settings,
          ),
        );
      }
    },
  };
}
