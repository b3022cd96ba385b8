import { type Kysely, type Selectable, sql } from 'kysely';
import { compositeKey } from '../../../core/composite-key';
import type { DB } from '../../../db/schema';
import type { DependencySource, Resolution } from '../../../ecosystems/types';
import {
  DEFAULT_RISK_SETTINGS,
  type RiskSettings,
  type UsageFact,
} from '../../../intel/risk/indicators';
import type { DependencyFacts, VulnerabilityFact } from './definition';
import { NO_QUANTUM_FACTS } from './quantum';
import { type RiskCatalogueColumns, riskFacts } from './risk';

/**
 * The facts of every dependency of one repository (docs/policies.md#facts), computed with one
 * set-based query per source (dependencies, exposures, drift, health, versions, repository),
 * never one query per dependency. A dependency is one (package, version): several files
 * declaring the same version are one dependency.
 */

export interface RepositoryForFacts {
  id: string;
  name: string;
  business_criticality: string | null;
  lifecycle_status: string;
}

export interface DependencyWithFacts {
  packageId: string;
  /** '' when unpinned (the violation key). */
  version: string;
  ecosystem: string;
  packageName: string;
  /** purl without a version (the package's identity). */
  packageUrl: string;
  facts: DependencyFacts;
  /** When the used version was published (what `release.ageDays` is computed from). */
  publishedAt: Date | null;
}

const SEVERITY_LEVEL: Record<string, number> = { low: 1, medium: 2, high: 3, critical: 4 };
const LEVEL_NAME = ['none', 'low', 'medium', 'high', 'critical'] as const;
/** Exposure statuses that do not count in the totals (people decided they do not apply). */
const NOT_COUNTED = new Set(['not_affected', 'false_positive']);
const DAY_MS = 86_400_000;

const keyOf = (packageId: string, version: string) => compositeKey(packageId, version);

/** Narrows a statement to some packages (incremental evaluation); null: every package. */
type PackageFilter = readonly string[] | null;
const onlyPackages = (column: string, packageIds: PackageFilter) =>
  packageIds === null ? sql`` : sql`AND ${sql.ref(column)} = ANY(${[...packageIds]}::uuid[])`;

interface DependencyRow {
  scan_id: string;
  package_id: string;
  version: string;
  ecosystem: string;
  name: string;
  purl: string;
  package_purl: string;
  scope: string;
  direct: boolean;
  file: string;
  resolution: Resolution;
  source: DependencySource;
}

async function dependencyRows(db: Kysely<DB>, repositoryId: string, packageIds: PackageFilter) {
  const result = await sql<DependencyRow>`
    SELECT d.scan_id, d.package_id, coalesce(d.version, '') AS version, d.ecosystem, d.name,
      d.purl, p.purl AS package_purl, d.scope, d.direct, d.file, d.resolution, d.source
    FROM repository_dependencies d JOIN packages p ON p.id = d.package_id
    WHERE d.repository_id = ${repositoryId} ${onlyPackages('d.package_id', packageIds)}
    ORDER BY d.package_id, version, d.direct DESC, d.file`.execute(db);
  return result.rows;
}

/** One vulnerability of a dependency: an exposure row, or a match of the advisory store. */
export interface ExposureRow {
  package_id: string;
  version: string;
  status: string;
  fixed_versions: string[];
  canonical_id: string;
  aliases: string[];
  severity_rating: string | null;
  severity_score: string | number | null;
  kind: string;
  /** The exposure's import-level reachability; absent where none was analysed (unknown). */
  reachability?: string | null;
}

async function exposureRows(db: Kysely<DB>, repositoryId: string, packageIds: PackageFilter) {
  const result = await sql<ExposureRow>`
    SELECT e.package_id, e.version, e.status, e.fixed_versions, v.canonical_id, v.aliases,
      v.severity_rating, v.severity_score, v.kind, e.reachability
    FROM vulnerability_exposures e JOIN vulnerabilities v ON v.id = e.vulnerability_id
    WHERE e.repository_id = ${repositoryId} AND e.status <> 'fixed'
      ${onlyPackages('e.package_id', packageIds)}
    ORDER BY v.canonical_id`.execute(db);
  return result.rows;
}

/** Drift of a dependency: a stored snapshot row, or one computed from the catalogue. */
export type DriftRow = Pick<
  Selectable<DB['dependency_drift']>,
  | 'package_id'
  | 'used_version'
  | 'state'
  | 'latest_stable'
  | 'libyear'
  | 'major_behind'
  | 'minor_behind'
  | 'patch_behind'
  | 'deprecated'
  | 'yanked'
  | 'end_of_life'
>;

async function driftRows(
  db: Kysely<DB>,
  repositoryId: string,
  scanId: string,
  packageIds: PackageFilter,
) {
  const result = await sql<DriftRow>`
    SELECT package_id, used_version, state, latest_stable, libyear, major_behind, minor_behind,
      patch_behind, deprecated, yanked, end_of_life
    FROM dependency_drift
    WHERE repository_id = ${repositoryId} AND scan_id = ${scanId}
      ${onlyPackages('package_id', packageIds)}`.execute(db);
  return result.rows;
}

/** Health, licence, publication and risk inputs of one used (package, version). */
export interface CatalogueRow extends RiskCatalogueColumns {
  package_id: string;
  version: string;
  health_score: number | null;
  signals: unknown;
  version_licence: string | null;
  package_licence: string | null;
  published_at: Date | null;
}

/** The catalogue part after a `used (package_id, version)` CTE. */
const catalogueSelect = sql`, health AS (
      SELECT DISTINCT ON (s.package_id) s.package_id, s.default_score, s.signals
      FROM package_health_snapshots s
      WHERE s.package_id IN (SELECT package_id FROM used)
      ORDER BY s.package_id, s.snapshot_date DESC
    )
    SELECT u.package_id, u.version, h.default_score AS health_score, h.signals,
      pv.licence AS version_licence, m.licence AS package_licence, pv.published_at,
      m.status AS metadata_status, m.fetched_at, m.latest_stable, m.last_release_at,
      m.maintainers, m.deprecated AS package_deprecated, m.install_scripts, m.risk_inputs,
      pv.yanked AS version_yanked
    FROM used u
    LEFT JOIN health h ON h.package_id = u.package_id
    LEFT JOIN package_versions pv ON pv.package_id = u.package_id AND pv.version = u.version
    LEFT JOIN package_metadata m ON m.package_id = u.package_id`;

/** Health (latest snapshot), licence and publication date of each used (package, version). */
async function catalogueRows(db: Kysely<DB>, repositoryId: string, packageIds: PackageFilter) {
  const result = await sql<CatalogueRow>`
    WITH used AS (
      SELECT DISTINCT package_id, coalesce(version, '') AS version
      FROM repository_dependencies
      WHERE repository_id = ${repositoryId} ${onlyPackages('package_id', packageIds)}
    )
    ${catalogueSelect}`.execute(db);
  return result.rows;
}

/** The same for given (package, version) pairs (a batch of IDE verdicts). */
export async function catalogueRowsFor(
  db: Kysely<DB>,
  pairs: readonly { packageId: string; version: string }[],
): Promise<CatalogueRow[]> {
  if (pairs.length === 0) return [];
  const result = await sql<CatalogueRow>`
    WITH used AS (
      SELECT DISTINCT package_id, version
      FROM unnest(${pairs.map((p) => p.packageId)}::uuid[], ${pairs.map((p) => p.version)}::text[])
        AS wanted(package_id, version)
    )
    ${catalogueSelect}`.execute(db);
  return result.rows;
}

function vulnerabilityFacts(rows: readonly ExposureRow[]): DependencyFacts['vulnerabilities'] {
  const items: VulnerabilityFact[] = rows.map((row) => ({
    id: row.canonical_id,
    aliases: row.aliases ?? [],
    severity: row.severity_rating ?? '',
    cvss: row.severity_score === null ? 0 : Number(row.severity_score),
    fixAvailable: (row.fixed_versions ?? []).length > 0,
    fixedVersions: row.fixed_versions ?? [],
    status: row.status,
    kind: row.kind === 'malicious' ? 'malicious' : 'vulnerability',
    reachability: row.reachability ?? 'unknown',
  }));
  // Malicious findings are listed but never counted among vulnerabilities (see `malicious`).
  const counted = items.filter(
    (item) => !NOT_COUNTED.has(item.status) && item.kind !== 'malicious',
  );
  const level = Math.max(0, ...counted.map((item) => SEVERITY_LEVEL[item.severity] ?? 0));
  return {
    count: counted.length,
    ids: [...new Set(counted.flatMap((item) => [item.id, ...item.aliases]))],
    maxSeverity: LEVEL_NAME[level] ?? 'none',
    maxSeverityLevel: level,
    maxCvss: Math.max(0, ...counted.map((item) => item.cvss)),
    fixAvailable: counted.some((item) => item.fixAvailable),
    statuses: [...new Set(items.map((item) => item.status))],
    items,
  };
}

/** Malicious findings stand apart from vulnerabilities (docs/policies.md#facts). */
function maliciousFacts(rows: readonly ExposureRow[]): DependencyFacts['malicious'] {
  const live = rows.filter((row) => !NOT_COUNTED.has(row.status));
  return {
    flagged: live.length > 0,
    ids: [...new Set(live.flatMap((row) => [row.canonical_id, ...(row.aliases ?? [])]))],
    statuses: [...new Set(rows.map((row) => row.status))],
  };
}

function driftFacts(row: DriftRow | undefined): DependencyFacts['drift'] {
  const measured = row?.state === 'measured';
  return {
    known: measured,
    libyear: measured ? Number(row?.libyear ?? 0) : 0,
    majorsBehind: row?.major_behind ?? 0,
    minorsBehind: row?.minor_behind ?? 0,
    patchesBehind: row?.patch_behind ?? 0,
    deprecated: row?.deprecated ?? false,
    yanked: row?.yanked ?? false,
    endOfLife: row?.end_of_life ?? false,
    latestStable: row?.latest_stable ?? '',
  };
}

function signalScores(signals: unknown): Record<string, number> {
  const scores: Record<string, number> = {};
  if (!Array.isArray(signals)) return scores;
  for (const signal of signals) {
    if (typeof signal !== 'object' || signal === null) continue;
    const { key, score } = signal as { key?: unknown; score?: unknown };
    if (typeof key === 'string' && typeof score === 'number') scores[key] = score;
  }
  return scores;
}

function catalogueFacts(row: CatalogueRow | undefined, now: Date) {
  const licence = row?.version_licence ?? row?.package_licence ?? '';
  const published = row?.published_at ?? null;
  return {
    health: {
      known: row?.health_score !== null && row?.health_score !== undefined,
      score: Number(row?.health_score ?? 0),
      signals: signalScores(row?.signals),
    },
    licence: { known: licence !== '', expression: licence },
    release: {
      known: published !== null,
      ageDays: published ? Math.floor((now.getTime() - published.getTime()) / DAY_MS) : 0,
    },
  };
}

/** A declaration of the dependency as the risk indicators' usage (observed: at evaluation). */
function usageOf(row: DependencyRow, repository: RepositoryForFacts, now: Date): UsageFact {
  return {
    repositoryId: repository.id,
    repositoryName: repository.name,
    version: row.version === '' ? null : row.version,
    resolution: row.resolution,
    source: row.source,
    file: row.file,
    observedAt: now,
  };
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** What the sources know of one dependency (absent: unknown). */
export interface FactSources {
  exposures: readonly ExposureRow[];
  drift: DriftRow | undefined;
  catalogue: CatalogueRow | undefined;
  /** The dependency's declarations (the usage risk indicators judge them). */
  usage: readonly UsageFact[];
  /** The risk thresholds of the service's configuration (`Config['packageIntel']`). */
  riskSettings: RiskSettings;
}

/**
 * The facts of one dependency from its sources: the one builder behind violations, dry runs,
 * IDE verdicts and the offline gate (docs/policies.md#facts).
 */
export function assembleFacts(
  dependency: DependencyFacts['dependency'],
  sources: FactSources,
  repository: DependencyFacts['repository'],
  now: Date,
): DependencyFacts {
  return {
    dependency,
    vulnerabilities: vulnerabilityFacts(sources.exposures),
    malicious: maliciousFacts(sources.exposures.filter((row) => row.kind === 'malicious')),
    drift: driftFacts(sources.drift),
    ...catalogueFacts(sources.catalogue, now),
    risk: riskFacts(dependency, sources.catalogue, sources.usage, sources.riskSettings, now),
    quantum: NO_QUANTUM_FACTS,
    repository,
  };
}

/**
 * The facts of each (package, version) of the repository's latest dependencies, or only of the
 * dependencies on `packageIds` (what changed: incremental evaluation).
 */
export async function repositoryFacts(
  db: Kysely<DB>,
  repository: RepositoryForFacts,
  now = new Date(),
  packageIds: PackageFilter = null,
  riskSettings: RiskSettings = DEFAULT_RISK_SETTINGS,
): Promise<DependencyWithFacts[]> {
  if (packageIds !== null && packageIds.length === 0) return [];
  const dependencies = await dependencyRows(db, repository.id, packageIds);
  const first = dependencies[0];
  if (!first) return [];
  // One after the other: the statements share the transaction's connection.
  const exposures = await exposureRows(db, repository.id, packageIds);
  const drift = await driftRows(db, repository.id, first.scan_id, packageIds);
  const catalogue = await catalogueRows(db, repository.id, packageIds);
  const exposuresOf = groupBy(exposures, (row) => keyOf(row.package_id, row.version));
  const driftOf = new Map(drift.map((row) => [keyOf(row.package_id, row.used_version), row]));
  const catalogueOf = new Map(catalogue.map((row) => [keyOf(row.package_id, row.version), row]));
  const repositoryPart = {
    name: repository.name,
    criticality: repository.business_criticality ?? '',
    lifecycle: repository.lifecycle_status,
  };
  const out: DependencyWithFacts[] = [];
  for (const [key, rows] of groupBy(dependencies, (row) => keyOf(row.package_id, row.version))) {
    const head = rows[0] as DependencyRow;
    const dependency = {
      ecosystem: head.ecosystem,
      name: head.name,
      version: head.version,
      purl: head.purl,
      direct: rows.some((row) => row.direct),
      scope: head.scope,
      resolution: head.resolution,
      file: head.file,
      files: [...new Set(rows.map((row) => row.file))],
    };
    out.push({
      packageId: head.package_id,
      version: head.version,
      ecosystem: head.ecosystem,
      packageName: head.name,
      packageUrl: head.package_purl,
      facts: assembleFacts(
        dependency,
        {
          exposures: exposuresOf.get(key) ?? [],
          drift: driftOf.get(key),
          catalogue: catalogueOf.get(key),
          usage: rows.map((row) => usageOf(row, repository, now)),
          riskSettings,
        },
        repositoryPart,
        now,
      ),
      publishedAt: catalogueOf.get(key)?.published_at ?? null,
    });
  }
  return out;
}
