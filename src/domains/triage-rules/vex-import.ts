import type { Kysely } from 'kysely';
import type { Principal } from '../../core/principal';
import { ProblemError, unprocessable } from '../../core/problem';
import type { DB } from '../../db/schema';
import { mapPurl } from '../../sbom/purl-map';
import { type CreateRuleBody, createTriageRule, revokeTriageRule } from './service';
import type { TriageRuleRow } from './store';
import { formatVers, parseVers } from './vers';
import { readVexDocument } from './vex-documents';
import { type ReadProduct, type ReadStatement, readVexStatements } from './vex-read';
import { liveRulesFor, type RepositoryAddress, repositoryAddresses } from './vex-store';

/**
 * Importing a VEX document as triage rules (docs/triage.md#vex). Each (statement, package,
 * version range) becomes one rule, limited to the repositories its products name or everywhere;
 * what cannot become a rule is reported as skipped with the reason. The request's transaction
 * holds it all: a document that fails its schema stores nothing.
 */
export type ImportOutcome = 'created' | 'updated' | 'unchanged' | 'skipped';

export interface ImportResult {
  statement: number;
  vulnerability: string | null;
  status: string | null;
  purl: string | null;
  versionRange: string | null;
  repositoryIds: string[];
  outcome: ImportOutcome;
  triageRuleId: string | null;
  replacedTriageRuleId: string | null;
  reason: string | null;
}

export interface ImportSummary {
  format: 'openvex' | 'cyclonedx';
  specVersion: string;
  statements: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  exposuresSettled: number;
  results: ImportResult[];
}

/** Rules one import may write: each is applied to the tenant's exposures in the request. */
export const MAX_IMPORTED_RULES = 5000;

interface Target {
  statement: ReadStatement;
  purl: string;
  ecosystem: string;
  packageName: string;
  versionRange: string | null;
  everywhere: boolean;
  repositoryIds: Set<string>;
}

/** Clone and web addresses compare without scheme case, `.git` or a trailing slash. */
const normaliseUrl = (url: string) =>
  url
    .trim()
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .toLowerCase();

function repositoryIndex(repositories: RepositoryAddress[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const repository of repositories) {
    for (const url of [repository.clone_url, repository.web_url]) {
      if (url && !index.has(normaliseUrl(url))) index.set(normaliseUrl(url), repository.id);
    }
  }
  return index;
}

const skippedResult = (
  statement: ReadStatement,
  purl: string | null,
  reason: string,
): ImportResult => ({
  statement: statement.index,
  vulnerability: statement.vulnerability,
  status: statement.documentStatus,
  purl,
  versionRange: null,
  repositoryIds: [],
  outcome: 'skipped',
  triageRuleId: null,
  replacedTriageRuleId: null,
  reason,
});

/** The package, version range and repository of one product, or why it has none. */
function targetOf(
  product: ReadProduct,
  repositories: Map<string, string>,
):
  | (Omit<Target, 'statement' | 'everywhere' | 'repositoryIds'> & { repositoryId: string | null })
  | string {
  if (product.skipReason || !product.purl) return `${product.label} ${product.skipReason}`;
  const mapped = mapPurl(product.purl, null);
  if (!mapped.ok) {
    return mapped.reason === 'invalid'
      ? `${product.label} is not a package URL: ${mapped.message}`
      : `${product.label}: purl type ${mapped.type} is not supported`;
  }
  const { ecosystem, name, resolution } = mapped.value;
  const version = product.version ?? mapped.value.version;
  let versionRange = product.versionRange;
  if (!versionRange && version !== null) {
    if (product.version === null && resolution !== 'resolved') {
      return `${product.label}: the purl version ${version} is a range, not a version`;
    }
    versionRange = `vers:${ecosystem.purlType}/${encodeURIComponent(version)}`;
  }
  if (versionRange) {
    const parsed = parseVers(versionRange);
    if (!parsed.ok) return `${product.label}: version range ${versionRange} ${parsed.message}`;
    versionRange = formatVers(parsed.value);
  }
  let repositoryId: string | null = null;
  if (product.repositoryUrl) {
    repositoryId = repositories.get(normaliseUrl(product.repositoryUrl)) ?? null;
    if (!repositoryId) return `${product.repositoryUrl} is not one of the tenant's repositories`;
  }
  return {
    purl: mapped.value.purl,
    ecosystem: ecosystem.id,
    packageName: name,
    versionRange,
    repositoryId,
  };
}

/** Products of the statements grouped into rules to write; the rest as skipped results. */
function plan(statements: ReadStatement[], repositories: Map<string, string>) {
  const targets = new Map<string, Target>();
  const skipped: ImportResult[] = [];
  for (const statement of statements) {
    if (statement.skipReason) {
      skipped.push(skippedResult(statement, null, statement.skipReason));
      continue;
    }
    for (const product of statement.products) {
      const target = targetOf(product, repositories);
      if (typeof target === 'string') {
        skipped.push(skippedResult(statement, product.purl, target));
        continue;
      }
      const key = [statement.index, target.ecosystem, target.packageName, target.versionRange];
      const known = targets.get(key.join('\u0000')) ?? {
        ...target,
        statement,
        everywhere: false,
        repositoryIds: new Set<string>(),
      };
      if (target.repositoryId) known.repositoryIds.add(target.repositoryId);
      else known.everywhere = true;
      targets.set(key.join('\u0000'), known);
    }
  }
  return { targets: [...targets.values()], skipped };
}

const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

function sameDecision(rule: TriageRuleRow, body: CreateRuleBody): boolean {
  return (
    rule.status === body.status &&
    (rule.justification ?? null) === (body.justification ?? null) &&
    (rule.reason ?? null) === (body.reason ?? null) &&
    (rule.expires_at?.toISOString() ?? null) ===
      (body.expiresAtUtc ? new Date(body.expiresAtUtc).toISOString() : null)
  );
}

/** Writes one rule: unchanged when a live one says the same, else created (replacing one). */
async function writeRule(
  db: Kysely<DB>,
  principal: Principal,
  target: Target,
  expiresAt: Date | null,
): Promise<{ result: ImportResult; settled: number }> {
  const { statement } = target;
  const decision = statement.decision as NonNullable<ReadStatement['decision']>;
  const repositoryIds = target.everywhere ? [] : [...target.repositoryIds].sort();
  const base = { ...skippedResult(statement, target.purl, ''), reason: null };
  const result = { ...base, versionRange: target.versionRange, repositoryIds };
  if (decision.status === 'accepted_risk' && !expiresAt) {
    const reason = 'an accepted risk needs an expiry: give acceptedRiskExpiresAtUtc';
    return { result: { ...result, reason }, settled: 0 };
  }
  const body: CreateRuleBody = {
    vulnerability: statement.vulnerability as string,
    ecosystem: target.ecosystem,
    packageName: target.packageName,
    versionRange: target.versionRange,
    repositoryIds,
    status: decision.status,
    justification: decision.justification,
    reason: decision.reason,
    expiresAtUtc: decision.status === 'accepted_risk' ? (expiresAt?.toISOString() ?? null) : null,
  };
  const key = {
    vulnerability: body.vulnerability,
    ecosystem: target.ecosystem,
    packageName: target.packageName,
  };
  const live = (await liveRulesFor(db, key)).find(
    (rule) =>
      rule.version_range === target.versionRange && sameSet(rule.repository_ids, repositoryIds),
  );
  if (live && sameDecision(live, body)) {
    return { result: { ...result, outcome: 'unchanged', triageRuleId: live.id }, settled: 0 };
  }
  try {
    const { rule, settled } = await createTriageRule(db, principal, body, 'vex');
    // The new rule first, then the old one revoked: what the old one settled reopens and the
    // new one takes it, and a rule that cannot be created leaves the old one standing.
    if (live) await revokeTriageRule(db, principal, live.id);
    const outcome: ImportOutcome = live ? 'updated' : 'created';
    const replaced = live?.id ?? null;
    return {
      result: { ...result, outcome, triageRuleId: rule.id, replacedTriageRuleId: replaced },
      settled,
    };
  } catch (error) {
    // Checks that fail before anything is written (the transaction is intact).
    if (!(error instanceof ProblemError) || error.status >= 500) throw error;
    const details = Object.entries(error.errors ?? {}).map(([f, m]) => `${f} ${m.join(', ')}`);
    return { result: { ...result, reason: details.join('; ') || error.message }, settled: 0 };
  }
}

export async function importVex(
  db: Kysely<DB>,
  principal: Principal,
  body: unknown,
  options: { acceptedRiskExpiresAt: Date | null },
): Promise<ImportSummary> {
  const expiresAt = options.acceptedRiskExpiresAt;
  if (expiresAt && expiresAt <= new Date()) {
    throw unprocessable('The expiry is in the past.', {
      acceptedRiskExpiresAtUtc: ['must be in the future'],
    });
  }
  const vex = readVexDocument(body);
  const statements = readVexStatements(vex);
  const repositories = repositoryIndex(await repositoryAddresses(db));
  const { targets, skipped } = plan(statements, repositories);
  if (targets.length > MAX_IMPORTED_RULES) {
    throw unprocessable('The document names too many packages.', {
      body: [`names ${targets.length} rules; at most ${MAX_IMPORTED_RULES} in one import`],
    });
  }
  const results = [...skipped];
  let exposuresSettled = 0;
  for (const target of targets) {
    const { result, settled } = await writeRule(db, principal, target, expiresAt);
    results.push(result);
    exposuresSettled += settled;
  }
  results.sort((a, b) => a.statement - b.statement);
  const count = (outcome: ImportOutcome) => results.filter((r) => r.outcome === outcome).length;
  return {
    format: vex.format,
    specVersion: vex.specVersion,
    statements: statements.length,
    created: count('created'),
    updated: count('updated'),
    unchanged: count('unchanged'),
    skipped: count('skipped'),
    exposuresSettled,
    results,
  };
}
