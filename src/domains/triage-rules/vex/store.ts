import { type Kysely, sql } from 'kysely';
import { compositeKey } from '../../../core/composite-key';
import type { DB } from '../../../db/schema';
import type { ExposureStatus } from '../../exposures/tables';

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

/** What the import compares and the export writes of a rule. */
const RULE_COLUMNS = [
  'r.id',
  'r.vulnerability_ref',
  'r.ecosystem',
  'r.package_name',
  'r.version_range',
  'r.repository_ids',
  'r.status',
  'r.justification',
  'r.reason',
  'r.expires_at',
  'r.created_at',
] as const;

export interface LiveRule {
  id: string;
  vulnerability_ref: string;
  ecosystem: string;
  package_name: string;
  version_range: string | null;
  repository_ids: string[];
  status: string;
  justification: string | null;
  reason: string | null;
  expires_at: Date | null;
}

/** Live rules of these packages, oldest first (a few hundred packages a query). */
export async function liveRulesOf(
  db: Kysely<DB>,
  packages: { ecosystem: string; packageName: string }[],
): Promise<LiveRule[]> {
  const rules: LiveRule[] = [];
  const distinct = [
    ...new Map(packages.map((p) => [compositeKey(p.ecosystem, p.packageName), p])).values(),
  ];
  for (let i = 0; i < distinct.length; i += 200) {
    const chunk = distinct.slice(i, i + 200);
    const rows = await db
      .selectFrom('triage_rules as r')
      .select(RULE_COLUMNS)
      .where(active)
      .where((eb) =>
        eb.or(
          chunk.map((p) =>
            eb.and([eb('r.ecosystem', '=', p.ecosystem), eb('r.package_name', '=', p.packageName)]),
          ),
        ),
      )
      .orderBy('r.created_at')
      .orderBy('r.id')
      .execute();
    rules.push(...rows);
  }
  return rules;
}

/** Live rules, oldest first; with a repository: those that apply to it. */
export async function liveRulesForExport(db: Kysely<DB>, repositoryId: string | null) {
  let query = db.selectFrom('triage_rules as r').select(RULE_COLUMNS).where(active);
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
      'e.accepted_until',
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
