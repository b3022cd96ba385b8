import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB } from '../../../db/schema';
import { getEcosystem } from '../../../ecosystems/ecosystem-list';
import { ECOSYSTEMS, type Ecosystem } from '../../../ecosystems/types';
import { parseVers, versContains } from '../../../ecosystems/vers';
import { emitStatusChanged } from '../matching/events';
import {
  changeStatusBySystem,
  reopenRuleDecisions,
  type SystemStatusChange,
  statusStamp,
} from './system-status';

/**
 * Applying triage rules to exposures (docs/triage.md). A rule settles an exposure that is `open`
 * and whose status no person set (a new match, a reopened one, one reopened by a rule's
 * revocation or an expired acceptance): the oldest active rule that covers it wins. An exposure
 * a person triaged is never overridden. Each exposure a rule settles is audited
 * (`vulnerability_exposure.triage_rule_applied`, no actor, the rule in `details`).
 */
export interface ApplyScope {
  repositoryId?: string;
  exposureIds?: string[];
  /** Only these packages (new rules): the exposures of each (ecosystem, name). */
  packages?: { ecosystem: string; packageName: string }[];
}

/** A stored triage rule (the table is the triage-rules domain's; read here through the schema). */
type TriageRule = Selectable<DB['triage_rules']>;
type RuleStatus = TriageRule['status'];

type RuleRow = Pick<
  TriageRule,
  | 'id'
  | 'vulnerability_ref'
  | 'ecosystem'
  | 'package_name'
  | 'version_range'
  | 'status'
  | 'justification'
  | 'reason'
  | 'expires_at'
> & { repository_ids: string[] };

interface Candidate {
  id: string;
  repository_id: string;
  ecosystem: string;
  package_name: string;
  version: string;
  resolution: string;
  canonical_id: string;
  aliases: string[];
  status_stamp: string | null;
}

const SUPPORTED = new Set<string>(ECOSYSTEMS);

/** Open exposures no person has set, in scope, with their vulnerability's identifiers. */
async function candidates(db: Kysely<DB>, scope: ApplyScope): Promise<Candidate[]> {
  let query = db
    .selectFrom('vulnerability_exposures as e')
    .innerJoin('vulnerabilities as v', 'v.id', 'e.vulnerability_id')
    .select([
      'e.id',
      'e.repository_id',
      'e.ecosystem',
      'e.package_name',
      'e.version',
      'e.resolution',
      'v.canonical_id',
      'v.aliases',
      statusStamp('e'),
    ])
    .where('e.status', '=', 'open')
    .where('e.status_changed_by_token_id', 'is', null);
  if (scope.repositoryId) query = query.where('e.repository_id', '=', scope.repositoryId);
  if (scope.exposureIds) {
    if (scope.exposureIds.length === 0) return [];
    query = query.where('e.id', 'in', scope.exposureIds);
  }
  if (scope.packages) {
    const packages = scope.packages;
    if (packages.length === 0) return [];
    query = query.where((eb) =>
      eb.or(
        packages.map((p) =>
          eb.and([eb('e.ecosystem', '=', p.ecosystem), eb('e.package_name', '=', p.packageName)]),
        ),
      ),
    );
  }
  return query.execute();
}

/** Active rules (not revoked, not expired) naming one of the packages, oldest first. */
async function activeRules(db: Kysely<DB>, found: Candidate[]): Promise<RuleRow[]> {
  const ecosystems = [...new Set(found.map((c) => c.ecosystem))];
  const names = [...new Set(found.map((c) => c.package_name))];
  return db
    .selectFrom('triage_rules')
    .select([
      'id',
      'vulnerability_ref',
      'ecosystem',
      'package_name',
      'version_range',
      'repository_ids',
      'status',
      'justification',
      'reason',
      'expires_at',
    ])
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
    .where('ecosystem', 'in', ecosystems)
    .where('package_name', 'in', names)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Whether a rule covers an exposure: its vulnerability, package, repository and version. */
export function ruleCovers(rule: RuleRow, exposure: Candidate): boolean {
  if (rule.ecosystem !== exposure.ecosystem || rule.package_name !== exposure.package_name) {
    return false;
  }
  const ref = rule.vulnerability_ref.toUpperCase();
  const ids = [exposure.canonical_id, ...(exposure.aliases ?? [])].map((id) => id.toUpperCase());
  if (!ids.includes(ref)) return false;
  if (rule.repository_ids.length > 0 && !rule.repository_ids.includes(exposure.repository_id)) {
    return false;
  }
  if (rule.version_range === null) return true;
  // A range speaks of exact versions: a declared range or an unpinned dependency is not proven in it.
  if (exposure.resolution !== 'resolved' || exposure.version === '') return false;
  if (!SUPPORTED.has(exposure.ecosystem)) return false;
  const parsed = parseVers(rule.version_range);
  if (!parsed.ok) return false;
  const ordering = getEcosystem(exposure.ecosystem as Ecosystem).versioning;
  return versContains(parsed.value, exposure.version, ordering);
}

/**
 * Settles the open, untouched exposures in scope that an active rule covers. Returns the ids of
 * the exposures it settled (the refresh leaves them out of its opened/reopened events).
 */
export async function applyTriageRules(db: Kysely<DB>, scope: ApplyScope): Promise<Set<string>> {
  const found = await candidates(db, scope);
  if (found.length === 0) return new Set();
  const rules = await activeRules(db, found);
  if (rules.length === 0) return new Set();
  const changes: SystemStatusChange[] = [];
  for (const exposure of found) {
    const rule = rules.find((r) => ruleCovers(r, exposure));
    if (!rule) continue;
    changes.push({
      id: exposure.id,
      // Decided on an open exposure no person has set (the candidates), as read.
      from: 'open',
      stamp: exposure.status_stamp,
      to: rule.status,
      justification: rule.status === 'not_affected' ? rule.justification : null,
      reason: rule.reason,
      acceptedUntil: rule.status === 'accepted_risk' ? rule.expires_at : null,
      triageRuleId: rule.id,
      details: { ruleId: rule.id },
    });
  }
  return new Set(
    await changeStatusBySystem(db, 'vulnerability_exposure.triage_rule_applied', changes),
  );
}

/**
 * Announces exposures a rule settled or reopened outside a refresh (a new rule, a VEX import, a
 * revocation) as `exposures.status_changed` (emitStatusChanged: policies evaluate those
 * dependencies again, the dashboard's rollups refresh). A refresh announces its own.
 */
export async function announceStatusChanges(
  db: Kysely<DB>,
  tenantId: string,
  exposureIds: Iterable<string>,
): Promise<void> {
  const ids = [...exposureIds];
  const changes: { repositoryId: string; packageId: string }[] = [];
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .selectFrom('vulnerability_exposures')
      .select(['repository_id', 'package_id'])
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute();
    for (const row of rows)
      changes.push({ repositoryId: row.repository_id, packageId: row.package_id });
  }
  await emitStatusChanged(db, tenantId, changes);
}

/**
 * Revokes a rule's decisions: exposures still carrying it in the status it gave go back to
 * `open` (triage cleared, audited `vulnerability_exposure.triage_rule_revoked`), then other
 * active rules get their chance. Returns how many reopened.
 */
export async function withdrawRule(
  db: Kysely<DB>,
  tenantId: string,
  rule: { id: string; status: RuleStatus },
): Promise<number> {
  const reopened = await reopenRuleDecisions(db, rule);
  await applyTriageRules(db, { exposureIds: reopened });
  await announceStatusChanges(db, tenantId, reopened);
  return reopened.length;
}
