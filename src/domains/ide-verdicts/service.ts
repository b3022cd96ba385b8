import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { compositeKey } from '../../core/composite-key';
import { notFound } from '../../core/problem';
import type { DB } from '../../db/schema';
import { loadIndex } from '../../intel/advisory-store/lookup';
import { isMaliciousId } from '../../intel/osv/types';
import { type Catalogue, loadCatalogueByName } from '../drift/catalogue';
import { type DriftOutcome, driftOf } from '../drift/service';
import { type CompiledCondition, conditionOf } from '../policies/evaluation/cel';
import { appliesTo, loadRepository } from '../policies/evaluation/evaluate';
import type { DependencyFacts } from '../policies/facts/definition';
import { isRepositoryCondition } from '../policies/facts/reads';
import {
  assembleFacts,
  type CatalogueRow,
  catalogueRowsFor,
  type DriftRow,
  type ExposureRow,
  type RepositoryForFacts,
} from '../policies/facts/store';
import { enabledPolicies, type PolicyRow } from '../policies/store';
import { isBlocking, standingOf, standingsIn } from '../policies/violations/blocking';
import type { AskedPackage } from './inputs';
import {
  type FiringPolicy,
  judgeRepository,
  type RepositoryVerdict,
  type Verdict,
} from './repository';

export type { FiringPolicy, Verdict };

import { exposureKey, exposureStatuses, vulnerabilityRows } from './store';

/**
 * IDE verdicts (docs/policies.md#ide-verdicts): the tenant's enabled policies evaluated over the
 * facts of each asked-about package, built by the same builder as violations from what the
 * service knows (advisory store, catalogue, health). One set-based statement per source.
 */

export type VerdictSettings = Config['packageIntel'];

interface Matched {
  vulnerabilityId: string;
  malicious: boolean;
  exact: boolean;
  fixed: Set<string>;
}

const keyOf = (ecosystem: string, name: string) => compositeKey(ecosystem, name);

/** Exposure statuses that dismiss a finding in a repository (as malicious.flagged reads them). */
const DISMISSED = new Set(['not_affected', 'false_positive']);

/** Without a repository only the policies that narrow no repository apply (scope ecosystems does). */
function applicablePolicies(policies: PolicyRow[], repository: RepositoryForFacts | undefined) {
  if (repository) return policies.filter((policy) => appliesTo(policy, repository));
  return policies.filter(
    (p) =>
      p.enabled &&
      p.scope.repositoryIds.length === 0 &&
      p.scope.businessCriticalities.length === 0 &&
      p.scope.lifecycleStatuses.length === 0,
  );
}

/** Advisory matches of each asked package by vulnerability (several advisories, one flaw). */
async function matchAll(db: Kysely<DB>, asked: readonly AskedPackage[]) {
  const keys = new Map(
    asked.map((a) => [keyOf(a.ecosystem.id, a.name), { ecosystem: a.ecosystem.id, name: a.name }]),
  );
  const { index, vulnerabilityOf } = await loadIndex(db, [...keys.values()]);
  return asked.map((a) => {
    const byVulnerability = new Map<string, Matched>();
    const matches = index.match({
      ecosystem: a.ecosystem.id,
      name: a.name,
      version: a.version,
      resolution: a.resolution,
    });
    for (const match of matches) {
      const vulnerabilityId = vulnerabilityOf.get(match.advisory.id) as string;
      const entry = byVulnerability.get(vulnerabilityId) ?? {
        vulnerabilityId,
        malicious: false,
        exact: false,
        fixed: new Set<string>(),
      };
      entry.malicious ||= isMaliciousId(match.advisory.id);
      entry.exact ||= match.status === 'affected';
      for (const version of match.fixedVersions) entry.fixed.add(version);
      byVulnerability.set(vulnerabilityId, entry);
    }
    return [...byVulnerability.values()];
  });
}

function driftRow(outcome: DriftOutcome | undefined): DriftRow | undefined {
  if (outcome?.state !== 'measured') return undefined;
  return {
    package_id: '',
    used_version: '',
    state: 'measured',
    latest_stable: outcome.latestStable,
    libyear: outcome.libyear,
    major_behind: outcome.behind?.major ?? null,
    minor_behind: outcome.behind?.minor ?? null,
    patch_behind: outcome.behind?.patch ?? null,
    deprecated: outcome.deprecated,
    yanked: outcome.yanked,
    end_of_life: outcome.endOfLife,
  };
}

interface Known {
  packageIds: Map<string, string>;
  catalogue: Catalogue;
  catalogueRows: Map<string, CatalogueRow>;
  statuses: Map<string, string>;
  vulnerabilities: Map<string, Awaited<ReturnType<typeof vulnerabilityRows>>[number]>;
}

/** Everything the service knows about the batch, one statement per source. */
async function lookUp(
  db: Kysely<DB>,
  asked: readonly AskedPackage[],
  matched: Matched[][],
  repositoryId: string | null,
): Promise<Known> {
  const names = new Map(asked.map((a) => [keyOf(a.ecosystem.id, a.name), a]));
  const { packageIds, catalogue } = await loadCatalogueByName(
    db,
    [...names.values()].map((a) => ({ ecosystem: a.ecosystem.id, name: a.name })),
  );
  const ids = [...new Set(packageIds.values())];
  const pairs = asked.flatMap((a) => {
    const packageId = packageIds.get(keyOf(a.ecosystem.id, a.name));
    return packageId ? [{ packageId, version: a.version ?? '' }] : [];
  });
  const catalogueRows = new Map(
    (await catalogueRowsFor(db, pairs)).map((row) => [
      compositeKey(row.package_id, row.version),
      row,
    ]),
  );
  const statuses = repositoryId ? await exposureStatuses(db, repositoryId, ids) : new Map();
  const vulnerabilityIds = [...new Set(matched.flat().map((m) => m.vulnerabilityId))];
  const vulnerabilities = new Map(
    (await vulnerabilityRows(db, vulnerabilityIds)).map((row) => [row.id, row]),
  );
  return { packageIds, catalogue, catalogueRows, statuses, vulnerabilities };
}

/** One exposure-like row per matched vulnerability the store knows, with its match. */
function exposureRows(
  matched: Matched[],
  known: Known,
  packageId: string | undefined,
  version: string,
): { row: ExposureRow; match: Matched }[] {
  return matched.flatMap((m) => {
    const vulnerability = known.vulnerabilities.get(m.vulnerabilityId);
    if (!vulnerability) return [];
    const status =
      (packageId && known.statuses.get(exposureKey(packageId, version, m.vulnerabilityId))) ||
      'open';
    const row: ExposureRow = {
      package_id: packageId ?? '',
      version,
      status,
      fixed_versions: [...m.fixed],
      canonical_id: vulnerability.canonical_id,
      aliases: vulnerability.aliases ?? [],
      severity_rating: vulnerability.severity_rating,
      severity_score: vulnerability.severity_score,
      kind: m.malicious ? 'malicious' : 'vulnerability',
    };
    return [{ row, match: m }];
  });
}

export interface PackageVerdictResult {
  asked: AskedPackage;
  packageId: string | null;
  facts: DependencyFacts;
  /** The match behind each of `facts.vulnerabilities.items`, in the same order. */
  matches: Matched[];
  firing: FiringPolicy[];
  knowledge: { registryMetadata: boolean; versionListed: boolean; health: boolean };
  verdict: Verdict;
  reasons: string[];
}

type Judged = Omit<PackageVerdictResult, 'firing' | 'verdict' | 'reasons'> & {
  holding: PolicyRow[];
  malicious: boolean;
};

/** Counts for the verdict while its violation is open or acknowledged (a block or a warn). */
const standsOpen = (status: string) => status === 'open' || status === 'acknowledged';

/** block: a block policy fires or a malicious package; warn: a warn policy or a vulnerability. */
function decide(
  firing: FiringPolicy[],
  facts: DependencyFacts,
  malicious: boolean,
): { verdict: Verdict; reasons: string[] } {
  const reasons = firing.map(
    ({ policy: p, status }) =>
      `policy "${p.name}" (${p.action}, ${p.severity}${standsOpen(status) ? '' : `, ${status} here`})`,
  );
  if (malicious) reasons.unshift('a malicious-package advisory names this package');
  const vulnerable = facts.vulnerabilities.count > 0;
  if (vulnerable) {
    reasons.push(
      `${facts.vulnerabilities.count} known vulnerabilities (highest ${facts.vulnerabilities.maxSeverity})`,
    );
  }
  if (facts.health.known) reasons.push(`health score ${facts.health.score}`);
  if (malicious || firing.some((f) => f.blocking)) return { verdict: 'block', reasons };
  const warns = firing.some((f) => f.policy.action === 'warn' && standsOpen(f.status));
  if (vulnerable || warns) return { verdict: 'warn', reasons };
  return { verdict: 'allow', reasons };
}

/** The catalogue's row of one package version, when the service knows the package. */
function catalogueRowOf(known: Known, packageId: string | null | undefined, version: string) {
  return packageId ? known.catalogueRows.get(compositeKey(packageId, version)) : undefined;
}

/** A policy with its compiled condition, looked up once per batch (not per package). */
interface CompiledPolicy {
  policy: PolicyRow;
  holds: CompiledCondition['holds'];
}

function judgeOne(
  asked: AskedPackage,
  matched: Matched[],
  known: Known,
  context: { policies: CompiledPolicy[]; repository: DependencyFacts['repository']; now: Date },
  settings: VerdictSettings,
): Judged {
  const packageId = known.packageIds.get(keyOf(asked.ecosystem.id, asked.name));
  const version = asked.version ?? '';
  const outcome = packageId
    ? driftOf(
        {
          packageId,
          ecosystem: asked.ecosystem.id,
          version: asked.version,
          resolution: asked.resolution,
          source: { kind: 'registry' },
        },
        known.catalogue,
        settings,
        context.now,
      )
    : undefined;
  const catalogue = catalogueRowOf(known, packageId, version);
  const exposures = exposureRows(matched, known, packageId, version);
  const facts = assembleFacts(
    {
      ecosystem: asked.ecosystem.id,
      name: asked.name,
      version,
      purl: asked.purl,
      direct: true,
      scope: 'runtime',
      resolution: asked.resolution,
      file: '',
      files: [],
    },
    {
      exposures: exposures.map((e) => e.row),
      drift: driftRow(outcome),
      catalogue,
      // The package as the editor asks about it: from the registry, at the asked version.
      usage: [
        {
          repositoryId: '',
          repositoryName: context.repository.name,
          version: asked.version,
          resolution: asked.resolution,
          source: { kind: 'registry' },
          file: '',
          observedAt: context.now,
        },
      ],
      riskSettings: settings,
    },
    context.repository,
    context.now,
  );
  const holding = context.policies
    .filter(
      ({ policy: p, holds }) =>
        (p.scope.ecosystems.length === 0 || p.scope.ecosystems.includes(asked.ecosystem.id)) &&
        holds(facts),
    )
    .map(({ policy }) => policy);
  // A malicious record blocks unless the repository dismissed that finding.
  const malicious = exposures.some(
    (e) => e.match.malicious && e.match.exact && !DISMISSED.has(e.row.status),
  );
  const listed = packageId ? (known.catalogue.versions.get(packageId) ?? []) : [];
  return {
    asked,
    packageId: packageId ?? null,
    facts,
    matches: exposures.map((e) => e.match),
    holding,
    malicious,
    knowledge: {
      registryMetadata: packageId ? known.catalogue.metadata.has(packageId) : false,
      versionListed: listed.some((row) => row.version === asked.version),
      health: facts.health.known,
    },
  };
}

/**
 * Each holding policy with where its violation stands in the repository (or, without one, under
 * the tenant-wide exceptions), then the verdict.
 */
async function settle(
  db: Kysely<DB>,
  judged: Judged[],
  repositoryId: string | null,
  now: Date,
): Promise<PackageVerdictResult[]> {
  const keys = judged.flatMap((j) =>
    j.packageId === null
      ? []
      : j.holding.map((p) => ({
          policyId: p.id,
          packageId: j.packageId as string,
          version: j.asked.version ?? '',
        })),
  );
  const standings = await standingsIn(db, repositoryId, keys, now);
  return judged.map(({ holding, malicious, ...rest }) => {
    const firing = holding.map((policy): FiringPolicy => {
      const standing =
        rest.packageId === null
          ? undefined
          : standingOf(standings, {
              policyId: policy.id,
              packageId: rest.packageId,
              version: rest.asked.version ?? '',
            });
      const status = standing?.status ?? 'open';
      return {
        policy,
        status,
        violationId: standing?.violationId ?? null,
        exceptionId: standing?.exceptionId ?? null,
        blocking: isBlocking(policy.action, status),
      };
    });
    return { ...rest, firing, ...decide(firing, rest.facts, malicious) };
  });
}

/** Verdicts for a batch, in the tenant's transaction. */
export async function judgePackages(
  db: Kysely<DB>,
  input: { packages: readonly AskedPackage[]; repositoryId: string | null },
  settings: VerdictSettings,
  now = new Date(),
): Promise<{
  results: PackageVerdictResult[];
  policies: number;
  repository: RepositoryVerdict | null;
}> {
  let repository: RepositoryForFacts | undefined;
  if (input.repositoryId) {
    repository = await loadRepository(db, input.repositoryId);
    if (!repository) throw notFound('The repository');
  }
  const applicable = applicablePolicies(await enabledPolicies(db), repository);
  // Repository conditions judge the repository, not a package (repository.ts).
  const policies = applicable.filter((p) => !isRepositoryCondition(conditionOf(p).reads));
  const matched = await matchAll(db, input.packages);
  const known = await lookUp(db, input.packages, matched, input.repositoryId);
  const context = {
    policies: policies.map((policy) => ({ policy, holds: conditionOf(policy).holds })),
    now,
    repository: {
      name: repository?.name ?? '',
      criticality: repository?.business_criticality ?? '',
      lifecycle: repository?.lifecycle_status ?? '',
    },
  };
  const judged = input.packages.map((asked, i) =>
    judgeOne(asked, matched[i] ?? [], known, context, settings),
  );
  const results = await settle(db, judged, input.repositoryId, now);
  const repositoryVerdict = repository
    ? await judgeRepository(db, repository, applicable, now)
    : null;
  return { results, policies: applicable.length, repository: repositoryVerdict };
}
