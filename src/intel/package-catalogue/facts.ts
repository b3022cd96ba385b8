import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import { getEcosystem } from '../../ecosystems/ecosystem-list';
import type { Ecosystem, Versioning } from '../../ecosystems/types';
import type { PackageFacts } from '../drift/drift';
import type { HealthFacts } from '../health/score';
import type { RegistryFacts } from '../risk/indicators';
import { latestMaintainerChange, versionRiskInputs } from './risk-inputs';
import type { MetadataRow, VersionRow } from './store';
import type { VersionRiskInputs } from './tables';

/**
 * Turns stored catalogue rows into the inputs of the pure computations in src/intel (drift,
 * health, risk), and counts known advisories from the vulnerability tables when they exist.
 */

export function registrySource(ecosystem: string): string {
  return `${ecosystem} registry`;
}

/** What drift reads of the catalogue: never the registry document (`raw`), which can be large. */
export type DriftMetadataRow = Pick<
  MetadataRow,
  'package_id' | 'status' | 'latest_stable' | 'deprecated'
>;
export type DriftVersionRow = Pick<
  VersionRow,
  'version' | 'published_at' | 'deprecated' | 'yanked' | 'prerelease'
>;

export function driftFacts(
  metadata: DriftMetadataRow,
  versions: readonly DriftVersionRow[],
): PackageFacts {
  return {
    latestStable: metadata.latest_stable,
    deprecated: metadata.deprecated,
    versions: versions.map((v) => ({
      version: v.version,
      publishedAt: v.published_at,
      deprecated: v.deprecated,
      yanked: v.yanked,
      prerelease: v.prerelease,
    })),
  };
}

export interface AdvisoryCounts {
  known: number;
  affectingLatest: number;
  observedAt: Date;
}

interface StoredRange {
  type: string;
  events: Record<string, string>[];
}

/** OSV range evaluation for one exact version (ECOSYSTEM and SEMVER ranges; GIT ranges are skipped). */
export function inOsvRanges(
  version: string,
  ranges: readonly StoredRange[],
  versioning: Versioning,
): boolean {
  const cmp = (a: string, b: string) => {
    try {
      return versioning.compare(a, b);
    } catch {
      return 0;
    }
  };
  for (const range of ranges) {
    if (range.type === 'GIT') continue;
    let affected = false;
    const events = [...(range.events ?? [])].sort((a, b) => {
      const va = Object.values(a)[0] ?? '0';
      const vb = Object.values(b)[0] ?? '0';
      if (va === '0') return -1;
      if (vb === '0') return 1;
      return cmp(va, vb);
    });
    for (const event of events) {
      if (event.introduced !== undefined) {
        if (event.introduced === '0' || cmp(version, event.introduced) >= 0) affected = true;
      } else if (event.fixed !== undefined) {
        if (cmp(version, event.fixed) >= 0) affected = false;
      } else if (event.last_affected !== undefined) {
        if (cmp(version, event.last_affected) > 0) affected = false;
      } else if (event.limit !== undefined) {
        if (cmp(version, event.limit) >= 0) affected = false;
      }
    }
    if (affected) return true;
  }
  return false;
}

let advisoryTablesSeen = false;

/**
 * Known advisories of a package from the vulnerability tables (migration 0006). Returns null
 * when those tables do not exist (the health signal is then "unknown", not "clean").
 */
export async function advisoryCounts(
  db: Kysely<DB>,
  ecosystem: Ecosystem,
  name: string,
  latestStable: string | null,
): Promise<AdvisoryCounts | null> {
  if (!advisoryTablesSeen) {
    const present = await sql<{ present: boolean }>`
      SELECT to_regclass('public.osv_affected') IS NOT NULL
         AND to_regclass('public.osv_advisories') IS NOT NULL
         AND to_regclass('public.vulnerabilities') IS NOT NULL AS present`.execute(db);
    if (!present.rows[0]?.present) return null;
    // Tables never disappear once migrated: checked once per process.
    advisoryTablesSeen = true;
  }
  const rows = await sql<{
    vulnerability_id: string;
    ranges: StoredRange[];
    versions: string[];
    updated_at: Date | null;
  }>`
    SELECT v.id AS vulnerability_id, a.ranges, a.versions, v.updated_at
      FROM osv_affected a
      JOIN osv_advisories adv ON adv.id = a.advisory_id
      JOIN vulnerabilities v ON v.id = adv.vulnerability_id
     WHERE a.ecosystem = ${ecosystem} AND a.name = ${name}
       AND NOT a.withdrawn AND v.withdrawn_at IS NULL
     LIMIT 5000`.execute(db);
  const versioning = getEcosystem(ecosystem).versioning;
  const known = new Set<string>();
  const affecting = new Set<string>();
  let observedAt = new Date(0);
  for (const row of rows.rows) {
    known.add(row.vulnerability_id);
    if (row.updated_at && row.updated_at > observedAt) observedAt = row.updated_at;
    if (
      latestStable &&
      (row.versions.includes(latestStable) ||
        inOsvRanges(latestStable, row.ranges ?? [], versioning))
    ) {
      affecting.add(row.vulnerability_id);
    }
  }
  return {
    known: known.size,
    affectingLatest: affecting.size,
    observedAt: rows.rows.length > 0 ? observedAt : new Date(),
  };
}

export function healthFacts(
  ecosystem: string,
  metadata: MetadataRow,
  versions: readonly VersionRow[],
  vulnerabilities: AdvisoryCounts | null,
): HealthFacts {
  const latestStable = versions.find((v) => v.version === metadata.latest_stable);
  const change = latestMaintainerChange(metadata, versions);
  return {
    registrySource: registrySource(ecosystem),
    observedAt: metadata.fetched_at,
    lastReleaseAt: metadata.last_release_at,
    releasesLastYear: metadata.releases_last_year,
    cadenceDays: metadata.cadence_days,
    versionCount: metadata.version_count,
    maintainers: metadata.maintainers.length > 0 ? metadata.maintainers : null,
    latestMaintainerChange: change
      ? { version: change.version, added: change.added, removed: change.removed }
      : null,
    packageDeprecated: metadata.deprecated,
    latestStableDeprecated: latestStable?.deprecated ?? null,
    vulnerabilities,
    licence: metadata.licence,
    repositoryUrl: metadata.repository_url,
    installScripts: metadata.install_scripts,
    downloads:
      metadata.downloads !== null && metadata.downloads_period
        ? {
            count: metadata.downloads,
            period: metadata.downloads_period as NonNullable<HealthFacts['downloads']>['period'],
          }
        : null,
  };
}

/** The package_metadata columns the risk indicators read (besides `risk_inputs`). */
export type RiskMetadataRow = Pick<
  MetadataRow,
  | 'fetched_at'
  | 'latest_stable'
  | 'last_release_at'
  | 'maintainers'
  | 'deprecated'
  | 'install_scripts'
  | 'licence'
>;

/**
 * Registry facts from the metadata columns and the compact version inputs; `yankedVersions`
 * needs to hold only the versions in use (the indicator asks about those alone).
 */
export function registryFactsOf(
  ecosystem: string,
  metadata: RiskMetadataRow,
  inputs: VersionRiskInputs,
  yankedVersions: ReadonlySet<string>,
): RegistryFacts {
  const newest = inputs.newestRelease;
  return {
    source: registrySource(ecosystem),
    fetchedAt: metadata.fetched_at,
    latestStable: metadata.latest_stable,
    newestRelease: newest
      ? { version: newest.version, publishedAt: new Date(newest.publishedAt) }
      : null,
    lastReleaseAt: metadata.last_release_at,
    maintainers: metadata.maintainers.length > 0 ? metadata.maintainers : null,
    latestMaintainerChange: inputs.latestMaintainerChange,
    deprecated: metadata.deprecated,
    installScripts: metadata.install_scripts,
    licence: metadata.licence,
    yankedVersions,
  };
}

/** Registry facts from the full version list (the package routes; policy facts use the above). */
export function riskRegistryFacts(
  ecosystem: string,
  metadata: MetadataRow,
  versions: readonly VersionRow[],
): RegistryFacts {
  return registryFactsOf(
    ecosystem,
    metadata,
    versionRiskInputs(metadata, versions),
    new Set(versions.filter((v) => v.yanked).map((v) => v.version)),
  );
}
