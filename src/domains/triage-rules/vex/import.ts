import type { Kysely } from 'kysely';
import { compositeKey } from '../../../core/composite-key';
import type { Principal } from '../../../core/principal';
import { ProblemError, unprocessable } from '../../../core/problem';
import type { DB } from '../../../db/schema';
import { formatVers, parseVers } from '../../../ecosystems/vers';
import { mapPurl } from '../../../sbom/purl-map';
import { announceStatusChanges, applyTriageRules } from '../../exposures/automatic/triage-apply';
import {
  type CreateRuleBody,
  checkTriageRule,
  type NewTriageRule,
  revokeTriageRule,
} from '../service';
import { insertTriageRule } from '../store';
import { readVexDocument } from './documents';
import { type ReadProduct, type ReadStatement, readVexStatements } from './read';
import { repositoryIdentity } from './repository-identity';
import { type LiveRule, liveRulesOf, type RepositoryAddress, repositoryAddresses } from './store';

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
  /** What the rule keeps (null when skipped): the mapping of the document's words is visible. */
  ruleStatus: string | null;
  justification: string | null;
  expiresAtUtc: string | null;
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
/** Products one import may name: each gets a result, and the answer must stay near the request's size. */
export const MAX_IMPORTED_PRODUCTS = 20000;

interface Target {
  statement: ReadStatement;
  purl: string;
  ecosystem: string;
  packageName: string;
  versionRange: string | null;
  everywhere: boolean;
  repositoryIds: Set<string>;
}

/**
 * The tenant's repositories by identity (clone and web address; repository-identity.ts). A
 * project added twice is both repositories: a statement about it holds in each.
 */
function repositoryIndex(repositories: RepositoryAddress[]): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const repository of repositories) {
    for (const url of [repository.clone_url, repository.web_url]) {
      const key = url ? repositoryIdentity(url)?.key : undefined;
      if (!key) continue;
      const ids = index.get(key) ?? [];
      if (!ids.includes(repository.id)) ids.push(repository.id);
      index.set(key, ids);
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
  ruleStatus: null,
  justification: null,
  expiresAtUtc: null,
  triageRuleId: null,
  replacedTriageRuleId: null,
  reason,
});

/** The package, version range and repository of one product, or why it has none. */
function targetOf(
  product: ReadProduct,
  repositories: Map<string, string[]>,
):
  | (Omit<Target, 'statement' | 'everywhere' | 'repositoryIds'> & {
      repositoryIds: string[] | null;
    })
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
  let repositoryIds: string[] | null = null;
  if (product.repositoryUrl) {
    const key = repositoryIdentity(product.repositoryUrl)?.key;
    repositoryIds = key ? (repositories.get(key) ?? null) : null;
    if (!repositoryIds) return `${product.repositoryUrl} is not one of the tenant's repositories`;
  }
  return {
    purl: mapped.value.purl,
    ecosystem: ecosystem.id,
    packageName: name,
    versionRange,
    repositoryIds,
  };
}

/** Products of the statements grouped into rules to write; the rest as skipped results. */
function plan(statements: ReadStatement[], repositories: Map<string, string[]>) {
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
      const known = targets.get(compositeKey(...key)) ?? {
        ...target,
        statement,
        everywhere: false,
        repositoryIds: new Set<string>(),
      };
      for (const id of target.repositoryIds ?? []) known.repositoryIds.add(id);
      if (!target.repositoryIds) known.everywhere = true;
      targets.set(compositeKey(...key), known);
    }
  }
  return { targets: [...targets.values()], skipped };
}

/** What makes two rules the same rule: vulnerability (any case), package, range, repositories. */
const ruleKey = (rule: LiveRule) =>
  compositeKey(
    rule.vulnerability_ref.toUpperCase(),
    rule.ecosystem,
    rule.package_name,
    rule.version_range,
    [...rule.repository_ids].sort().join(','),
  );

const sameDecision = (a: LiveRule, b: NewTriageRule) =>
  a.status === b.status &&
  a.justification === b.justification &&
  a.reason === b.reason &&
  (a.expires_at?.getTime() ?? null) === (b.expires_at?.getTime() ?? null);

interface ImportState {
  db: Kysely<DB>;
  principal: Principal;
  /** The request's expiry of accepted risks whose statement gives none. */
  expiresAt: Date | null;
  now: Date;
  /** The live rules of the document's packages by ruleKey (the oldest of each), kept current. */
  live: Map<string, LiveRule>;
  /** Packages of the rules written, for settling their exposures at the end. */
  written: Map<string, { ecosystem: string; packageName: string }>;
}

/** The checked rule of a target, or why it cannot be one (checks that write nothing). */
async function checkedRule(state: ImportState, target: Target): Promise<NewTriageRule | string> {
  const decision = target.statement.decision as NonNullable<ReadStatement['decision']>;
  // The statement's own end of the acceptance, else the one the request gives.
  const expiresAt = decision.expiresAt ?? state.expiresAt;
  if (decision.status === 'accepted_risk' && !expiresAt) {
    return 'an accepted risk needs an expiry: the statement gives none, give acceptedRiskExpiresAtUtc';
  }
  if (decision.status === 'accepted_risk' && expiresAt && expiresAt <= state.now) {
    return `the acceptance ended at ${expiresAt.toISOString()}`;
  }
  const body: CreateRuleBody = {
    vulnerability: target.statement.vulnerability as string,
    ecosystem: target.ecosystem,
    packageName: target.packageName,
    versionRange: target.versionRange,
    repositoryIds: target.everywhere ? [] : [...target.repositoryIds].sort(),
    status: decision.status,
    justification: decision.justification,
    reason: decision.reason,
    expiresAtUtc: decision.status === 'accepted_risk' ? expiresAt?.toISOString() : null,
  };
  try {
    return await checkTriageRule(state.db, state.principal, body, 'vex');
  } catch (error) {
    if (!(error instanceof ProblemError) || error.status >= 500) throw error;
    const details = Object.entries(error.errors ?? {}).map(([f, m]) => `${f} ${m.join(', ')}`);
    return details.join('; ') || error.message;
  }
}

/** Writes one rule: unchanged when a live one says the same, else created (replacing one). */
async function writeRule(state: ImportState, target: Target): Promise<ImportResult> {
  const repositoryIds = target.everywhere ? [] : [...target.repositoryIds].sort();
  const result: ImportResult = {
    ...skippedResult(target.statement, target.purl, ''),
    versionRange: target.versionRange,
    repositoryIds,
  };
  const rule = await checkedRule(state, target);
  if (typeof rule === 'string') return { ...result, reason: rule };
  result.ruleStatus = rule.status;
  result.justification = rule.justification;
  result.expiresAtUtc = rule.expires_at?.toISOString() ?? null;
  const key = ruleKey(rule);
  const live = state.live.get(key);
  if (live && sameDecision(live, rule)) {
    return { ...result, outcome: 'unchanged', triageRuleId: live.id, reason: null };
  }
  await insertTriageRule(state.db, rule);
  state.live.set(key, rule);
  state.written.set(compositeKey(rule.ecosystem, rule.package_name), {
    ecosystem: rule.ecosystem,
    packageName: rule.package_name,
  });
  if (!live) return { ...result, outcome: 'created', triageRuleId: rule.id, reason: null };
  // The new rule first, then the old one revoked: what the old one settled reopens and the
  // new one takes it.
  await revokeTriageRule(state.db, state.principal, live.id);
  return {
    ...result,
    outcome: 'updated',
    triageRuleId: rule.id,
    replacedTriageRuleId: live.id,
    reason: null,
  };
}

/** The rules written settle the open exposures of their packages, 200 packages a pass. */
async function settleWritten(state: ImportState): Promise<number> {
  const packages = [...state.written.values()];
  const settled: string[] = [];
  for (let i = 0; i < packages.length; i += 200) {
    const scope = { packages: packages.slice(i, i + 200) };
    settled.push(...(await applyTriageRules(state.db, scope)));
  }
  await announceStatusChanges(state.db, state.principal.tenantId, settled);
  return settled.length;
}

export async function importVex(
  db: Kysely<DB>,
  principal: Principal,
  body: unknown,
  options: { acceptedRiskExpiresAt: Date | null },
): Promise<ImportSummary> {
  const expiresAt = options.acceptedRiskExpiresAt;
  const now = new Date();
  if (expiresAt && expiresAt <= now) {
    throw unprocessable('The expiry is in the past.', {
      acceptedRiskExpiresAtUtc: ['must be in the future'],
    });
  }
  const vex = readVexDocument(body);
  const statements = readVexStatements(vex);
  const products = statements.reduce((sum, statement) => sum + statement.products.length, 0);
  if (products > MAX_IMPORTED_PRODUCTS) {
    throw unprocessable('The document names too many products.', {
      body: [`names ${products} products; at most ${MAX_IMPORTED_PRODUCTS} in one import`],
    });
  }
  const repositories = repositoryIndex(await repositoryAddresses(db));
  const { targets, skipped } = plan(statements, repositories);
  if (targets.length > MAX_IMPORTED_RULES) {
    throw unprocessable('The document names too many packages.', {
      body: [`names ${targets.length} rules; at most ${MAX_IMPORTED_RULES} in one import`],
    });
  }
  const state: ImportState = {
    db,
    principal,
    expiresAt,
    now,
    live: new Map(),
    written: new Map(),
  };
  const packages = targets.map((t) => ({ ecosystem: t.ecosystem, packageName: t.packageName }));
  for (const rule of await liveRulesOf(db, packages)) {
    if (!state.live.has(ruleKey(rule))) state.live.set(ruleKey(rule), rule);
  }
  const results = [...skipped];
  for (const target of targets) results.push(await writeRule(state, target));
  const exposuresSettled = await settleWritten(state);
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
