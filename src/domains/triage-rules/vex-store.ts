import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import type { ExposureStatus } from '../exposures/tables';
import type { TriageRuleRow } from './store';

/** Queries of the VEX import and export (docs/triage.md#vex); all tenant-scoped. */

export interface RepositoryAddress {
  id: string;
  clone_url: string;
  web_url: string | null;
}

export async function repositoryAddresses(db: Kysely<DB>): Promise<RepositoryAddress[]> {
  return db
    .selectFrom('repositories')
    .select(['id', 'clone_url', 'web_url'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function tenantName(db: Kysely<DB>, tenantId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('tenants')
    .select('name')
    .where('id', '=', tenantId)
    .executeTakeFirst();
  return row?.name;
}

const active = sql<boolean>`(r.revoked_at IS NULL AND (r.expires_at IS NULL OR r.expires_at > now()))`;

/** Live rules of one package with this identifier (any case), oldest first. */
export async function liveRulesFor(
  db: Kysely<DB>,
  key: { vulnerability: string; ecosystem: string; packageName: string },
): Promise<TriageRuleRow[]> {
  return db
    .selectFrom('triage_rules as r')
    .selectAll('r')
    .select(sql<number>`0`.as('exposure_count'))
    .where(active)
    .where('r.ecosystem', '=', key.ecosystem)
    .where('r.package_name', '=', key.packageName)
    .where(sql<boolean>`upper(r.vulnerability_ref) = upper(${key.vulnerability})`)
    .orderBy('r.created_at')
    .orderBy('r.id')
    .execute();
}

/** Live rules, oldest first; with a repository: those that apply to it. */
export async function liveRulesForExport(db: Kysely<DB>, repositoryId: string | null) {
  let query = db
    .selectFrom('triage_rules as r')
    .select([
      'r.id',
      'r.vulnerability_ref',
      'r.ecosystem',
      'r.package_name',
      'r.version_range',
      'r.repository_ids',
      'r.status',
      'r.justification',
      'r.reason',
      'r.created_at',
    ])
    .where(active);
  if (repositoryId) {
    query = query.where(
      sql<boolean>`(cardinality(r.repository_ids) = 0 OR ${repositoryId}::uuid = ANY(r.repository_ids))`,
    );
  }
  return query.orderBy('r.created_at').orderBy('r.id').execute();
}

/** Statuses a person gave exposures of exact versions (a rule's are exported as the rule). */
const DECIDED: ExposureStatus[] = [
  'investigating',
  'affected',
  'not_affected',
  'false_positive',
  'accepted_risk',
];

export async function decidedExposures(db: Kysely<DB>, repositoryId: string | null) {
  let query = db
    .selectFrom('vulnerability_exposures as e')
    .innerJoin('vulnerabilities as v', 'v.id', 'e.vulnerability_id')
    .leftJoin('vulnerabilities as m', 'm.id', 'v.merged_into')
    .innerJoin('repositories as repo', 'repo.id', 'e.repository_id')
    .select([
      'e.id',
      'e.ecosystem',
      'e.package_name',
      'e.version',
      'e.status',
      'e.justification',
      'e.status_reason',
      'e.status_changed_at',
      'e.updated_at',
      'repo.clone_url',
    ])
    .select(sql<string>`coalesce(m.canonical_id, v.canonical_id)`.as('vulnerability'))
    .where('e.status', 'in', DECIDED)
    .where('e.triage_rule_id', 'is', null)
    .where('e.resolution', '=', 'resolved')
    .where((eb) =>
      eb.or([eb('e.status', '!=', 'accepted_risk'), eb('e.accepted_until', '>', sql<Date>`now()`)]),
    );
  if (repositoryId) query = query.where('e.repository_id', '=', repositoryId);
  return query.orderBy('e.id').execute();
}
