import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import {
  type RegistryClient,
  RegistryError,
  RetryableRegistryError,
} from '../../ecosystems/registry-types';
import type { Ecosystem } from '../../ecosystems/types';
import { computeSignals, scoreSignals } from '../health/score';
import {
  type CatalogueChangeHandler,
  hasChanges,
  metadataChanges,
  type PreviousState,
} from './changes';
import { advisoryCounts, healthFacts } from './facts';
import {
  duePackages,
  knownBeforeFetch,
  latestScore,
  type MetadataRow,
  markNotFound,
  metadataOf,
  type OutcomeRow,
  recordOutcomes,
  registryBackoffs,
  saveHealthSnapshot,
  saveMetadata,
  setRegistryBackoff,
  type VersionRow,
  versionsOf,
} from './store';
import type { EnrichmentOutcome } from './tables';

/**
 * Fetches registry metadata into the shared catalogue (docs/package-intelligence.md#enrichment).
 * Runs on the system connection: the catalogue has no tenant. A registry that answers 429/5xx
 * with Retry-After is left alone until then (registry_backoff) and the package's next fetch is
 * scheduled for that time, where the scheduled refresh picks it up.
 */

export type RegistryClients = Partial<Record<Ecosystem, RegistryClient>>;

/** The package-intelligence settings enrichment uses (`Config['packageIntel']` satisfies it). */
export interface EnrichmentSettings {
  /** Registry metadata older than this is re-fetched. */
  staleAfterHours: number;
  /** Packages the scheduled refresh fetches per run. */
  refreshBatchSize: number;
  /** Registry requests in flight per job. */
  fetchConcurrency: number;
}

export interface EnrichmentDeps {
  db: Kysely<DB>;
  clients: RegistryClients;
  settings: EnrichmentSettings;
  now?: () => Date;
  /** Told of each change (deprecation, yanks, maintainers, release, health) in its transaction. */
  onChange?: CatalogueChangeHandler;
  /**
   * Database writes of one pass may overlap (PostgreSQL: `db` is a pool). False or absent: one
   * at a time, as the embedded database needs (one session, where interleaved transactions break).
   */
  parallelWrites?: boolean;
}

export interface EnrichmentSummary {
  outcomes: Record<EnrichmentOutcome, number>;
  /** Registries that gave no answer in this pass, with the last reason. */
  unreachable: Map<Ecosystem, string>;
  /** Registries that answered (any answer) in this pass. */
  answered: Set<Ecosystem>;
  /** Packages whose metadata arrived for the first time (drift snapshots waiting on them). */
  firstFetched: string[];
}

export interface PackageRef {
  id: string;
  ecosystem: string;
  name: string;
}

const HOUR_MS = 3_600_000;

function emptySummary(): EnrichmentSummary {
  return {
    outcomes: {
      fetched: 0,
      not_modified: 0,
      not_found: 0,
      deferred: 0,
      unreachable: 0,
      failed: 0,
      disabled: 0,
    },
    unreachable: new Map(),
    answered: new Set(),
    firstFetched: [],
  };
}

/**
 * Computes and stores today's health-signal snapshot of a package from the stored metadata. With
 * `onChange`, the snapshot is written in a transaction that also tells it when the default-weights
 * score moved from the previous snapshot's, or is the first score (previousScore null).
 */
export async function refreshHealthSnapshot(
  db: Kysely<DB>,
  pkg: PackageRef,
  now: Date,
  stored?: { metadata: MetadataRow; versions: VersionRow[] },
  onChange?: CatalogueChangeHandler,
): Promise<void> {
  const metadata = stored?.metadata ?? (await metadataOf(db, pkg.id));
  if (metadata?.status !== 'found') return;
  const versions = stored?.versions ?? (await versionsOf(db, pkg.id));
  const advisories = await advisoryCounts(
    db,
    pkg.ecosystem as Ecosystem,
    pkg.name,
    metadata.latest_stable,
  );
  const signals = computeSignals(healthFacts(pkg.ecosystem, metadata, versions, advisories), now);
  const score = scoreSignals(signals).score;
  if (!onChange) return saveHealthSnapshot(db, pkg.id, now, signals, score);
  await db.transaction().execute(async (trx) => {
    const previous = await latestScore(trx, pkg.id);
    await saveHealthSnapshot(trx, pkg.id, now, signals, score);
    // A first score is a change from nothing: a package that starts below a threshold alerts.
    if (score === null || score === previous) return;
    await onChange(trx, { package: pkg, health: { previousScore: previous ?? null, score } });
  });
}

/** Tells `onChange` what a new (not 304) answer changed against the stored state. */
function announceChanges(
  pkg: PackageRef,
  metadata: Parameters<typeof metadataChanges>[1],
  onChange: CatalogueChangeHandler,
) {
  return async (trx: Kysely<DB>, previous: PreviousState | null) => {
    if (!previous) return;
    const change = metadataChanges(previous, metadata);
    if (hasChanges(change)) await onChange(trx, { package: pkg, ...change });
  };
}

/**
 * Runs database work one piece at a time while registry requests overlap: the embedded database
 * is one session multiplexed over a socket, where interleaved transactions of one process break.
 */
function serialiser(parallel = false) {
  if (parallel) return <T>(work: () => Promise<T>): Promise<T> => work();
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => {});
    return run;
  };
}

type Serial = ReturnType<typeof serialiser>;

/** What one pass shares between its packages. */
interface Pass {
  backoffs: Map<string, Date>;
  known: Awaited<ReturnType<typeof knownBeforeFetch>>;
  summary: EnrichmentSummary;
  serial: Serial;
  /** Written together at the end of the pass. */
  outcomes: OutcomeRow[];
}

async function enrichOne(deps: EnrichmentDeps, pkg: PackageRef, pass: Pass): Promise<void> {
  const { backoffs, summary, serial } = pass;
  const now = deps.now?.() ?? new Date();
  const ecosystem = pkg.ecosystem as Ecosystem;
  const staleAt = new Date(now.getTime() + deps.settings.staleAfterHours * HOUR_MS);
  const record = async (outcome: EnrichmentOutcome, dueAt: Date, error: string | null = null) => {
    summary.outcomes[outcome]++;
    pass.outcomes.push({ packageId: pkg.id, ecosystem, outcome, dueAt, error });
  };
  const blockedUntil = backoffs.get(ecosystem);
  if (blockedUntil && blockedUntil > now)
    return record('deferred', blockedUntil, 'registry back-off');
  const client = deps.clients[ecosystem];
  if (!client || client.status.state === 'disabled') {
    const reason = client?.status.state === 'disabled' ? client.status.reason : 'no client';
    return record('disabled', staleAt, reason);
  }
  const previous = pass.known.previous.get(pkg.id) ?? null;
  const versionsOfInterest = pass.known.inUse.get(pkg.id) ?? [];
  try {
    const metadata = await client.fetchPackage(pkg.name, { previous, versionsOfInterest });
    summary.answered.add(ecosystem);
    if (!metadata) {
      await serial(() => markNotFound(deps.db, pkg.id, now));
      return record('not_found', staleAt);
    }
    const onChange = deps.onChange;
    await serial(async () => {
      const announce = onChange ? announceChanges(pkg, metadata, onChange) : undefined;
      const stored = await saveMetadata(deps.db, pkg.id, metadata, now, announce);
      // A 304 stores no versions: read them back for the snapshot.
      const known = metadata.notModified ? undefined : stored;
      await refreshHealthSnapshot(deps.db, pkg, now, known, onChange);
    });
    if (!previous) summary.firstFetched.push(pkg.id);
    return record(metadata.notModified ? 'not_modified' : 'fetched', staleAt);
  } catch (error) {
    if (error instanceof RetryableRegistryError) {
      const until = new Date(now.getTime() + Math.max(1, error.retryAfterSeconds) * 1000);
      // No status: no answer at all. The package stays pending for a reason people must see.
      if (error.status === null) {
        summary.unreachable.set(ecosystem, error.message);
        return record('unreachable', until, error.message);
      }
      summary.answered.add(ecosystem);
      // 429 is about the registry as a whole: stop asking it anything until Retry-After.
      if (error.status === 429 || error.status === 503) {
        backoffs.set(ecosystem, until);
        await serial(() => setRegistryBackoff(deps.db, ecosystem, until, error.message));
      }
      return record('deferred', until, error.message);
    }
    const message = error instanceof Error ? error.message : String(error);
    if (!(error instanceof RegistryError)) throw error;
    // Unusable answers: back off exponentially (1 h, 2 h, 4 h, ...) up to the staleness period.
    const attempts = await serial(() =>
      deps.db
        .selectFrom('package_enrichment')
        .select('attempts')
        .where('package_id', '=', pkg.id)
        .executeTakeFirst(),
    );
    const delay = Math.min(
      deps.settings.staleAfterHours * HOUR_MS,
      HOUR_MS * 2 ** Math.min(20, attempts?.attempts ?? 0),
    );
    return record('failed', new Date(now.getTime() + delay), message);
  }
}

/** Fetches the given packages with bounded concurrency; never throws for registry failures. */
export async function enrichPackages(
  deps: EnrichmentDeps,
  packages: readonly PackageRef[],
): Promise<EnrichmentSummary> {
  const summary = emptySummary();
  const backoffs = await registryBackoffs(deps.db, deps.now?.() ?? new Date());
  const now = deps.now?.() ?? new Date();
  // Only what will be asked: a disabled or backed-off registry's packages need nothing read.
  const asked = packages.filter((p) => {
    const client = deps.clients[p.ecosystem as Ecosystem];
    const blockedUntil = backoffs.get(p.ecosystem);
    return client && client.status.state !== 'disabled' && !(blockedUntil && blockedUntil > now);
  });
  const known = await knownBeforeFetch(
    deps.db,
    asked.map((p) => p.id),
  );
  const pass: Pass = {
    backoffs,
    known,
    summary,
    serial: serialiser(deps.parallelWrites),
    outcomes: [],
  };
  let next = 0;
  const worker = async () => {
    while (next < packages.length) {
      const pkg = packages[next++];
      if (pkg) await enrichOne(deps, pkg, pass);
    }
  };
  const workers = Math.max(1, Math.min(deps.settings.fetchConcurrency, packages.length));
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    // Also after an unexpected error: what was fetched before it is not asked again.
    await recordOutcomes(deps.db, pass.outcomes, deps.now?.() ?? new Date());
  }
  return summary;
}

/** The scheduled refresh: due (deferred, never fetched) and stale packages in use, one batch. */
export async function refreshDuePackages(
  deps: EnrichmentDeps,
): Promise<EnrichmentSummary & { picked: number }> {
  const now = deps.now?.() ?? new Date();
  const staleBefore = new Date(now.getTime() - deps.settings.staleAfterHours * HOUR_MS);
  const due = await duePackages(deps.db, now, staleBefore, deps.settings.refreshBatchSize);
  const summary = await enrichPackages(deps, due);
  return { ...summary, picked: due.length };
}

export async function packageRefs(db: Kysely<DB>, ids: readonly string[]): Promise<PackageRef[]> {
  const refs: PackageRef[] = [];
  for (let i = 0; i < ids.length; i += 5000) {
    refs.push(
      ...(await db
        .selectFrom('packages')
        .select(['id', 'ecosystem', 'name'])
        .where('id', 'in', ids.slice(i, i + 5000))
        .execute()),
    );
  }
  return refs;
}
