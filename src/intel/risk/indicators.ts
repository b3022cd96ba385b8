import type { DependencySource, Ecosystem, Resolution } from '../../ecosystems/types';
import { licenceFlag } from './licences';
import { typosquatSuspicion } from './typosquat';

/**
 * Supply-chain risk indicators of a package as one tenant uses it (docs/package-intelligence.md
 * #risk-indicators). Package facts come from the registry, usage facts from the tenant's scans;
 * every indicator says what was observed (evidence), where it came from and when.
 */

export type RiskKind =
  | 'typosquat'
  | 'install-scripts'
  | 'new-maintainer'
  | 'recently-published'
  | 'unmaintained'
  | 'single-maintainer'
  | 'deprecated'
  | 'yanked'
  | 'git-or-url-dependency'
  | 'floating-range-without-lockfile'
  | 'no-licence'
  | 'flagged-licence';

export type RiskSeverity = 'low' | 'medium' | 'high';

export interface RiskIndicator {
  kind: RiskKind;
  severity: RiskSeverity;
  title: string;
  evidence: Record<string, unknown>;
  source: string;
  observedAtUtc: string;
}

export interface RegistryFacts {
  source: string;
  fetchedAt: Date;
  latestStable: string | null;
  /** The newest version by release time, with its time. */
  newestRelease: { version: string; publishedAt: Date } | null;
  lastReleaseAt: Date | null;
  maintainers: string[] | null;
  latestMaintainerChange: { version: string; previousVersion: string; added: string[] } | null;
  deprecated: string | null;
  /** Install-time scripts of the newest stable version (null: the ecosystem has none to tell). */
  installScripts: string[] | null;
  licence: string | null;
  /** Versions the registry marks yanked/unlisted/retracted. */
  yankedVersions: ReadonlySet<string>;
}

export interface UsageFact {
  repositoryId: string;
  repositoryName: string;
  version: string | null;
  resolution: Resolution;
  source: DependencySource;
  file: string;
  /** When the scan that found it finished (the observation time of usage evidence). */
  observedAt: Date;
}

export interface RiskInput {
  ecosystem: Ecosystem;
  name: string;
  /** null while the registry has not been asked yet or does not know the package. */
  registry: RegistryFacts | null;
  usage: readonly UsageFact[];
  now: Date;
  settings: { recentlyPublishedHours: number; unmaintainedAfterDays: number };
}

export type RiskSettings = RiskInput['settings'];

/**
 * The thresholds when nothing sets them: config.ts reads PACKAGE_RECENTLY_PUBLISHED_HOURS and
 * PACKAGE_UNMAINTAINED_DAYS with these defaults; callers without a configuration (the offline
 * gate, benchmarks) use them directly.
 */
export const DEFAULT_RISK_SETTINGS: RiskSettings = {
  recentlyPublishedHours: 72,
  unmaintainedAfterDays: 730,
};

const DAY_MS = 24 * 3600 * 1000;
const iso = (date: Date) => date.toISOString();

function latestObservation(usage: readonly UsageFact[]): Date {
  let latest = new Date(0);
  for (const u of usage) if (u.observedAt > latest) latest = u.observedAt;
  return latest;
}

function where(u: UsageFact) {
  return {
    repositoryId: u.repositoryId,
    repository: u.repositoryName,
    file: u.file,
    version: u.version,
  };
}

export function riskIndicators(input: RiskInput): RiskIndicator[] {
  const out: RiskIndicator[] = [];
  typosquatIndicator(input, out);
  if (input.registry) {
    releaseIndicators(input, input.registry, out);
    publisherIndicators(input, input.registry, out);
  }
  usageIndicators(input.usage, out);
  return out;
}

/** A name that resembles a widely used one (the popular-names list of its ecosystem). */
function typosquatIndicator(input: RiskInput, out: RiskIndicator[]): void {
  const { now } = input;
  const typo = typosquatSuspicion(input.ecosystem, input.name);
  if (typo) {
    out.push({
      kind: 'typosquat',
      severity: 'high',
      title: `Name resembles the widely used ${typo.similarTo}`,
      evidence: {
        name: input.name,
        similarTo: typo.similarTo,
        editDistance: typo.distance,
        match: typo.kind,
        popularNamesVersion: typo.listVersion,
      },
      source: `driftwatch popular-names list ${input.ecosystem} ${typo.listVersion}`,
      observedAtUtc: iso(now),
    });
  }
}

/** What the latest releases show: install scripts, a new maintainer, a fresh or an old release. */
function releaseIndicators(input: RiskInput, registry: RegistryFacts, out: RiskIndicator[]): void {
  const { now } = input;
  const at = iso(registry.fetchedAt);
  const src = registry.source;
  if (registry.installScripts && registry.installScripts.length > 0) {
    out.push({
      kind: 'install-scripts',
      severity: 'medium',
      title: 'Runs scripts when installed',
      evidence: { version: registry.latestStable, scripts: registry.installScripts },
      source: src,
      observedAtUtc: at,
    });
  }
  const change = registry.latestMaintainerChange;
  if (change && change.added.length > 0) {
    out.push({
      kind: 'new-maintainer',
      severity: 'high',
      title: `New maintainer on the latest release ${change.version}`,
      evidence: {
        version: change.version,
        previousVersion: change.previousVersion,
        added: change.added,
      },
      source: src,
      observedAtUtc: at,
    });
  }
  const newest = registry.newestRelease;
  if (newest) {
    const hours = (now.getTime() - newest.publishedAt.getTime()) / 3_600_000;
    if (hours >= 0 && hours < input.settings.recentlyPublishedHours) {
      out.push({
        kind: 'recently-published',
        severity: 'medium',
        title: `${newest.version} was published ${Math.floor(hours)} hours ago`,
        evidence: {
          version: newest.version,
          publishedAtUtc: iso(newest.publishedAt),
          hoursSincePublished: Math.floor(hours),
          thresholdHours: input.settings.recentlyPublishedHours,
        },
        source: src,
        observedAtUtc: at,
      });
    }
  }
  if (registry.lastReleaseAt) {
    const days = Math.floor((now.getTime() - registry.lastReleaseAt.getTime()) / DAY_MS);
    if (days >= input.settings.unmaintainedAfterDays) {
      out.push({
        kind: 'unmaintained',
        severity: 'medium',
        title: `No release for ${days} days`,
        evidence: {
          lastReleaseAtUtc: iso(registry.lastReleaseAt),
          daysSinceLastRelease: days,
          thresholdDays: input.settings.unmaintainedAfterDays,
        },
        source: src,
        observedAtUtc: at,
      });
    }
  }
}

/** What the publisher says or leaves unsaid: one maintainer, deprecation, yanks, the licence. */
function publisherIndicators(
  input: RiskInput,
  registry: RegistryFacts,
  out: RiskIndicator[],
): void {
  const { usage } = input;
  const at = iso(registry.fetchedAt);
  const src = registry.source;
  if (registry.maintainers && registry.maintainers.length === 1) {
    out.push({
      kind: 'single-maintainer',
      severity: 'low',
      title: 'A single maintainer',
      evidence: { maintainers: registry.maintainers },
      source: src,
      observedAtUtc: at,
    });
  }
  if (registry.deprecated) {
    out.push({
      kind: 'deprecated',
      severity: 'medium',
      title: 'Deprecated by its publisher',
      evidence: { message: registry.deprecated },
      source: src,
      observedAtUtc: at,
    });
  }
  const yankedUses = usage.filter(
    (u) => u.version !== null && registry.yankedVersions.has(u.version),
  );
  if (yankedUses.length > 0) {
    out.push({
      kind: 'yanked',
      severity: 'high',
      title: 'A version in use was withdrawn by its publisher',
      evidence: { uses: yankedUses.map(where) },
      source: src,
      observedAtUtc: at,
    });
  }
  if (registry.licence === null) {
    out.push({
      kind: 'no-licence',
      severity: 'medium',
      title: 'No licence declared',
      evidence: { version: registry.latestStable, licence: null },
      source: src,
      observedAtUtc: at,
    });
  } else {
    const flag = licenceFlag(registry.licence);
    if (flag) {
      out.push({
        kind: 'flagged-licence',
        severity: flag === 'strong-copyleft' ? 'low' : 'medium',
        title: `Licence ${registry.licence} is commonly flagged (${flag})`,
        evidence: { licence: registry.licence, flag },
        source: src,
        observedAtUtc: at,
      });
    }
  }
}

/** How the repositories use it: from git or a URL, or a range no lockfile pins. */
function usageIndicators(usage: RiskInput['usage'], out: RiskIndicator[]): void {
  const outside = usage.filter((u) => u.source.kind === 'git' || u.source.kind === 'url');
  if (outside.length > 0) {
    out.push({
      kind: 'git-or-url-dependency',
      severity: 'medium',
      title: 'Installed from a git repository or URL, outside the registry',
      evidence: {
        uses: outside.map((u) => ({
          ...where(u),
          sourceKind: u.source.kind,
          url: 'url' in u.source ? u.source.url : null,
          ref: u.source.kind === 'git' ? u.source.ref : null,
        })),
      },
      source: 'repository scans',
      observedAtUtc: iso(latestObservation(outside)),
    });
  }

  const floating = usage.filter(
    (u) =>
      u.source.kind === 'registry' && (u.resolution === 'declared' || u.resolution === 'unpinned'),
  );
  if (floating.length > 0) {
    out.push({
      kind: 'floating-range-without-lockfile',
      severity: 'low',
      title: 'A version range with no lockfile pinning it',
      evidence: { uses: floating.map((u) => ({ ...where(u), resolution: u.resolution })) },
      source: 'repository scans',
      observedAtUtc: iso(latestObservation(floating)),
    });
  }
}
