import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { iso } from '../../core/iso-time';
import { notFound } from '../../core/problem';
import type { DB } from '../../db/schema';
import { getEcosystem } from '../../ecosystems/ecosystem-list';
import type { Ecosystem } from '../../ecosystems/types';
import { computeSignals, type HealthSignal, scoreSignals } from '../../intel/health/score';
import type { ScoringWeights } from '../../intel/health/weights';
import {
  advisoryCounts,
  healthFacts,
  registrySource,
  riskRegistryFacts,
} from '../../intel/package-catalogue/facts';
import {
  type MetadataRow,
  metadataOf,
  type VersionRow,
  versionsOf,
} from '../../intel/package-catalogue/store';
import { curatedMapping, replacementCandidates } from '../../intel/replacements/replacements';
import { type RiskIndicator, riskIndicators } from '../../intel/risk/indicators';
import { loadCatalogue } from '../drift/catalogue';
import { type DriftOutcome, driftOf } from '../drift/service';
import { loadScoringWeights } from '../tenant-settings/store';
import {
  findVisiblePackage,
  healthHistory,
  isWatched,
  type ListedPackage,
  packageIdsByName,
  type UsageRow,
  usageOf,
} from './store';

/** What the package endpoints compute from stored state (docs/package-intelligence.md). */

type Db = Kysely<DB>;
type Settings = Config['packageIntel'];

export type MetadataStatus = 'found' | 'not_found' | 'pending';

/**
 * Why a package has no metadata yet, from its fetch schedule (docs/package-intelligence.md): null
 * once the registry answered. An unreachable registry must not look like a fetch still to come.
 * Connection errors and unusable answers are not quoted: they name the operator's registry
 * address, which tenants are not told (the log and the banner have them).
 */
export function pendingReason(row: ListedPackage): string | null {
  if (row.status) return null;
  const next = row.due_at ? `; next try at ${row.due_at.toISOString()}` : '';
  switch (row.last_outcome) {
    case null:
    case undefined:
      return 'waiting for its first registry fetch';
    case 'unreachable':
      return `the ${row.ecosystem} registry cannot be reached${next}`;
    case 'deferred':
      return `the ${row.ecosystem} registry asked to wait (${row.last_error ?? 'retry later'})${next}`;
    case 'failed':
      return `the ${row.ecosystem} registry's answer could not be used${next}`;
    case 'disabled':
      return `the ${row.ecosystem} registry is off: ${row.last_error ?? 'no registry configured'}`;
    default:
      return `last registry fetch: ${row.last_outcome}${next}`;
  }
}

export function presentPackage(row: ListedPackage) {
  return {
    packageId: row.id,
    ecosystem: row.ecosystem,
    name: row.name,
    purl: row.purl,
    latestStableVersion: row.latest_stable ?? null,
    latestVersion: row.latest ?? null,
    description: row.description ?? null,
    licence: row.licence ?? null,
    repositoryUrl: row.repository_url ?? null,
    deprecated: row.deprecated !== null && row.deprecated !== undefined,
    metadataStatus: (row.status ?? 'pending') as MetadataStatus,
    metadataPendingReason: pendingReason(row),
    metadataFetchedAtUtc: iso(row.fetched_at),
    createdAtUtc: row.created_at.toISOString(),
  };
}

/** The package (404 when unknown or not visible to this tenant) with its catalogue facts. */
export async function loadPackage(db: Db, packageId: string) {
  const row = await findVisiblePackage(db, packageId);
  if (!row) throw notFound('The package');
  const metadata = row.status ? await metadataOf(db, packageId) : undefined;
  const versions = metadata?.status === 'found' ? await versionsOf(db, packageId) : [];
  return { row, metadata, versions };
}

type Loaded = Awaited<ReturnType<typeof loadPackage>>;

export async function packageDetail(db: Db, packageId: string) {
  const { row, metadata, versions } = await loadPackage(db, packageId);
  const recent = [...versions].reverse().slice(0, 20);
  return {
    ...presentPackage(row),
    deprecationMessage: metadata?.deprecated ?? null,
    successor: metadata?.successor ?? null,
    homepage: metadata?.homepage ?? null,
    maintainers: metadata?.maintainers ?? [],
    versionCount: metadata?.version_count ?? 0,
    firstReleaseAtUtc: iso(metadata?.first_release_at),
    lastReleaseAtUtc: iso(metadata?.last_release_at),
    latestStableReleasedAtUtc: iso(metadata?.latest_stable_released_at),
    releasesLastYear: metadata?.releases_last_year ?? 0,
    medianDaysBetweenReleases: metadata?.cadence_days ?? null,
    installScripts: metadata?.install_scripts ?? null,
    downloads:
      metadata?.downloads !== null && metadata?.downloads !== undefined && metadata.downloads_period
        ? { count: metadata.downloads, period: metadata.downloads_period }
        : null,
    notes: (metadata?.notes as string[] | undefined) ?? [],
    watched: await isWatched(db, packageId),
    recentVersions: recent.map((v) => ({
      version: v.version,
      publishedAtUtc: iso(v.published_at),
      prerelease: v.prerelease,
      deprecated: v.deprecated !== null,
      yanked: v.yanked,
      licence: v.licence,
    })),
  };
}

async function currentSignals(db: Db, loaded: Loaded, now: Date): Promise<HealthSignal[] | null> {
  const { row, metadata, versions } = loaded;
  if (metadata?.status !== 'found') return null;
  const advisories = await advisoryCounts(
    db,
    row.ecosystem as Ecosystem,
    row.name,
    metadata.latest_stable,
  );
  return computeSignals(healthFacts(row.ecosystem, metadata, versions, advisories), now);
}

function presentSignals(scored: ReturnType<typeof scoreSignals>['signals']) {
  return scored.map((s) => ({
    signal: s.key,
    value: s.value,
    score: s.score,
    weight: s.weight,
    points: s.points,
    source: s.source,
    observedAtUtc: s.observedAtUtc,
    detail: s.detail,
  }));
}

export async function packageHealth(db: Db, packageId: string, now = new Date()) {
  const loaded = await loadPackage(db, packageId);
  const weights = await loadScoringWeights(db);
  const signals = await currentSignals(db, loaded, now);
  const scored = signals ? scoreSignals(signals, weights) : null;
  return {
    packageId,
    status: (loaded.row.status ?? 'pending') as MetadataStatus,
    score: scored?.score ?? null,
    computedAtUtc: now.toISOString(),
    weights,
    signals: scored ? presentSignals(scored.signals) : [],
  };
}

export async function packageHealthHistory(db: Db, packageId: string, take: number) {
  await loadPackage(db, packageId);
  const weights = await loadScoringWeights(db);
  const rows = await healthHistory(db, packageId, take);
  const items = rows.map((row) => ({
    date: row.date,
    computedAtUtc: row.computed_at.toISOString(),
    // The day's signals scored with the tenant's current weights.
    score: scoreSignals(row.signals as HealthSignal[], weights).score,
    defaultWeightsScore: row.default_score,
  }));
  return { packageId, items, totalReturned: items.length, take };
}

function usageFacts(rows: readonly UsageRow[]) {
  return rows.map((u) => ({
    repositoryId: u.repository_id,
    repositoryName: u.repository_name,
    version: u.version,
    resolution: u.resolution,
    source: u.source,
    file: u.file,
    observedAt: u.observed_at,
  }));
}

async function indicators(
  db: Db,
  loaded: Loaded,
  settings: Settings,
  now: Date,
): Promise<RiskIndicator[]> {
  const { row, metadata, versions } = loaded;
  const usage = await usageOf(db, row.id);
  return riskIndicators({
    ecosystem: row.ecosystem as Ecosystem,
    name: row.name,
    registry:
      metadata && metadata.status === 'found'
        ? riskRegistryFacts(row.ecosystem, metadata, versions)
        : null,
    usage: usageFacts(usage),
    now,
    settings: {
      recentlyPublishedHours: settings.recentlyPublishedHours,
      unmaintainedAfterDays: settings.unmaintainedAfterDays,
    },
  });
}

export async function packageRiskIndicators(
  db: Db,
  packageId: string,
  settings: Settings,
  now = new Date(),
) {
  const loaded = await loadPackage(db, packageId);
  const items = await indicators(db, loaded, settings, now);
  return { packageId, evaluatedAtUtc: now.toISOString(), items };
}

function presentDrift(outcome: DriftOutcome) {
  if (outcome.state !== 'measured') {
    return {
      state: outcome.state,
      comparedVersion: null,
      latestStableVersion: null,
      libyear: null,
      majorBehind: null,
      minorBehind: null,
      patchBehind: null,
      versionsBehind: null,
      deprecated: false,
      yanked: false,
      endOfLife: false,
      endOfLifeReason: null,
    };
  }
  return {
    state: outcome.state,
    comparedVersion: outcome.comparedVersion,
    latestStableVersion: outcome.latestStable,
    libyear: outcome.libyear,
    majorBehind: outcome.behind?.major ?? null,
    minorBehind: outcome.behind?.minor ?? null,
    patchBehind: outcome.behind?.patch ?? null,
    versionsBehind: outcome.behind?.versions ?? null,
    deprecated: outcome.deprecated,
    yanked: outcome.yanked,
    endOfLife: outcome.endOfLife,
    endOfLifeReason: outcome.endOfLifeReason,
  };
}

async function usageWithDrift(db: Db, loaded: Loaded, settings: Settings, now: Date) {
  const usage = await usageOf(db, loaded.row.id);
  const catalogue = await loadCatalogue(db, usage.length > 0 ? [loaded.row.id] : []);
  return usage.map((u) => ({
    usage: u,
    drift: driftOf(
      {
        packageId: loaded.row.id,
        ecosystem: loaded.row.ecosystem,
        version: u.version,
        resolution: u.resolution,
        source: u.source,
      },
      catalogue,
      settings,
      now,
    ),
  }));
}

export async function packageUsage(
  db: Db,
  packageId: string,
  settings: Settings,
  now = new Date(),
) {
  const loaded = await loadPackage(db, packageId);
  const rows = await usageWithDrift(db, loaded, settings, now);
  const items = rows.map(({ usage: u, drift }) => ({
    repositoryId: u.repository_id,
    repositoryName: u.repository_name,
    scanId: u.scan_id,
    version: u.version,
    resolution: u.resolution,
    scope: u.scope,
    direct: u.direct,
    file: u.file,
    sourceKind: u.source.kind,
    observedAtUtc: u.observed_at.toISOString(),
    drift: presentDrift(drift),
  }));
  return {
    packageId,
    repositoryCount: new Set(items.map((i) => i.repositoryId)).size,
    items,
  };
}

export async function packageReplacements(db: Db, packageId: string) {
  const { row, metadata, versions } = await loadPackage(db, packageId);
  const ecosystem = row.ecosystem as Ecosystem;
  const latest = versions.find((v) => v.version === metadata?.latest_stable);
  const candidates = replacementCandidates({
    ecosystem,
    name: row.name,
    deprecated: metadata?.deprecated ?? latest?.deprecated ?? null,
    successor: metadata?.successor ?? null,
    normaliseName: getEcosystem(ecosystem).normaliseName,
  });
  const ids = await packageIdsByName(
    db,
    ecosystem,
    candidates.map((c) => c.name),
  );
  return {
    packageId,
    curatedMappingVersion: curatedMapping().version,
    items: candidates.map((c) => ({
      name: c.name,
      ecosystem: c.ecosystem,
      packageId: ids.get(c.name) ?? null,
      reason: c.reason,
      confidence: c.confidence,
      sources: c.sources,
      evidence: c.evidence,
    })),
  };
}

function registryEvidence(
  row: ListedPackage,
  metadata: MetadataRow | undefined,
  versions: readonly VersionRow[],
) {
  if (!metadata) return [];
  const source = registrySource(row.ecosystem);
  const at = metadata.fetched_at.toISOString();
  const latest = versions.find((v) => v.version === metadata.latest_stable);
  const fact = (key: string, value: unknown, detail: string) => ({
    kind: 'registry-fact' as const,
    key,
    value,
    source,
    observedAtUtc: at,
    detail,
  });
  if (metadata.status !== 'found')
    return [fact('status', 'not_found', 'the registry does not know this package')];
  return [
    fact(
      'latestStableVersion',
      metadata.latest_stable,
      `newest stable release ${metadata.latest_stable ?? 'unknown'}`,
    ),
    fact(
      'latestStableReleasedAtUtc',
      iso(latest?.published_at),
      'release time of the newest stable version',
    ),
    fact('versionCount', metadata.version_count, `${metadata.version_count} versions listed`),
    fact('licence', metadata.licence, metadata.licence ?? 'no licence declared'),
    fact(
      'repositoryUrl',
      metadata.repository_url,
      metadata.repository_url ?? 'no repository linked',
    ),
    fact('maintainers', metadata.maintainers, `${metadata.maintainers.length} maintainers listed`),
    fact(
      'validators',
      { etag: metadata.etag, lastModified: metadata.last_modified },
      'kept for conditional re-fetches',
    ),
  ];
}

export async function packageEvidence(
  db: Db,
  packageId: string,
  settings: Settings,
  now = new Date(),
) {
  const loaded = await loadPackage(db, packageId);
  const weights = await loadScoringWeights(db);
  const signals = await currentSignals(db, loaded, now);
  const scored = signals ? scoreSignals(signals, weights).signals : [];
  const risks = await indicators(db, loaded, settings, now);
  return {
    packageId,
    items: [
      ...registryEvidence(loaded.row, loaded.metadata, loaded.versions),
      ...scored.map((s) => ({
        kind: 'health-signal' as const,
        key: s.key,
        value: s.value,
        source: s.source,
        observedAtUtc: s.observedAtUtc,
        detail: s.detail,
      })),
      ...risks.map((r) => ({
        kind: 'risk-indicator' as const,
        key: r.kind,
        value: r.evidence,
        source: r.source,
        observedAtUtc: r.observedAtUtc,
        detail: r.title,
      })),
    ],
  };
}

const SEVERITY_RANK = { low: 1, medium: 2, high: 3 } as const;

export async function packageSummary(
  db: Db,
  packageId: string,
  settings: Settings,
  now = new Date(),
) {
  const loaded = await loadPackage(db, packageId);
  const { row, metadata } = loaded;
  const weights: ScoringWeights = await loadScoringWeights(db);
  const signals = await currentSignals(db, loaded, now);
  const health = signals ? scoreSignals(signals, weights).score : null;
  const risks = await indicators(db, loaded, settings, now);
  const uses = await usageWithDrift(db, loaded, settings, now);
  const measured = uses.flatMap(({ drift }) => (drift.state === 'measured' ? [drift] : []));
  let highest: RiskIndicator['severity'] | null = null;
  for (const r of risks)
    if (!highest || SEVERITY_RANK[r.severity] > SEVERITY_RANK[highest]) highest = r.severity;
  const replacements = await packageReplacements(db, packageId);
  const vulnerabilities = signals?.find((s) => s.key === 'vulnerabilities')?.value ?? null;
  return {
    ...presentPackage(row),
    deprecationMessage: metadata?.deprecated ?? null,
    healthScore: health,
    riskIndicatorCount: risks.length,
    highestRiskSeverity: highest,
    riskKinds: risks.map((r) => r.kind),
    knownVulnerabilities: (vulnerabilities?.known as number | null | undefined) ?? null,
    repositoriesUsing: new Set(uses.map((u) => u.usage.repository_id)).size,
    versionsInUse: [
      ...new Set(uses.flatMap((u) => (u.usage.version ? [u.usage.version] : []))),
    ].slice(0, 50),
    drift: {
      maxLibyear: measured.reduce<number | null>(
        (max, d) => (d.libyear !== null && (max === null || d.libyear > max) ? d.libyear : max),
        null,
      ),
      maxMajorBehind: measured.reduce<number | null>(
        (max, d) => (d.behind && (max === null || d.behind.major > max) ? d.behind.major : max),
        null,
      ),
      outdatedUses: measured.filter((d) => (d.behind?.versions ?? 0) > 0).length,
      deprecatedUses: measured.filter((d) => d.deprecated).length,
      yankedUses: measured.filter((d) => d.yanked).length,
      endOfLifeUses: measured.filter((d) => d.endOfLife).length,
    },
    replacementCandidateCount: replacements.items.length,
    watched: await isWatched(db, packageId),
    evaluatedAtUtc: now.toISOString(),
  };
}
