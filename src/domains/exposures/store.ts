import { type Kysely, type Selectable, sql } from 'kysely';
import { type TakeSkip, type TakeSkipPage, takeSkipPage } from '../../db/paging';
import type { DB } from '../../db/schema';
import type { FindingKind, SeverityRating } from '../../intel/osv/types';
import type { Reachability } from '../../intel/reachability/analyse';
import { changeStatusBySystem, statusStamp } from './automatic/system-status';
import {
  type ChangedExposure,
  changedExposure,
  EVENT_COLUMNS,
  emitExposureEvents,
  emitStatusChanged,
} from './matching/events';
import type { ExposureStatus, VulnerabilityExposureTable } from './tables';

export interface ExposureFilter {
  repositoryId?: string;
  severity?: SeverityRating;
  status?: ExposureStatus;
  ecosystem?: string;
  packageId?: string;
  vulnerabilityId?: string;
  possiblyAffected?: boolean;
  kind?: FindingKind;
  reachability?: Reachability;
  triageRuleId?: string;
}

export type ExposureRow = Selectable<VulnerabilityExposureTable> & {
  kind: FindingKind;
  canonical_id: string;
  aliases: string[];
  summary: string | null;
  severity_rating: SeverityRating | null;
  severity_score: string | number | null;
  severity_vector: string | null;
  purl: string;
};

function base(db: Kysely<DB>) {
  return db
    .selectFrom('vulnerability_exposures as e')
    .innerJoin('vulnerabilities as v', 'v.id', 'e.vulnerability_id')
    .innerJoin('packages as p', 'p.id', 'e.package_id');
}

function filtered(db: Kysely<DB>, filter: ExposureFilter) {
  let query = base(db);
  if (filter.repositoryId) query = query.where('e.repository_id', '=', filter.repositoryId);
  if (filter.severity) query = query.where('v.severity_rating', '=', filter.severity);
  if (filter.status) query = query.where('e.status', '=', filter.status);
  if (filter.ecosystem) query = query.where('e.ecosystem', '=', filter.ecosystem);
  if (filter.packageId) query = query.where('e.package_id', '=', filter.packageId);
  if (filter.kind) query = query.where('v.kind', '=', filter.kind);
  if (filter.reachability) query = query.where('e.reachability', '=', filter.reachability);
  if (filter.triageRuleId) query = query.where('e.triage_rule_id', '=', filter.triageRuleId);
  if (filter.possiblyAffected !== undefined) {
    query = query.where('e.possibly_affected', '=', filter.possiblyAffected);
  }
  if (filter.vulnerabilityId) {
    // A vulnerability merged into another is found under the one it was merged into.
    const wanted = filter.vulnerabilityId;
    query = query.where((eb) =>
      eb.or([
        eb('e.vulnerability_id', '=', wanted),
        eb(
          'e.vulnerability_id',
          '=',
          eb.selectFrom('vulnerabilities').select('merged_into').where('id', '=', wanted),
        ),
      ]),
    );
  }
  return query;
}

const COLUMNS = [
  'e.tenant_id',
  'e.id',
  'e.repository_id',
  'e.package_id',
  'e.ecosystem',
  'e.package_name',
  'e.version',
  'e.resolution',
  'e.possibly_affected',
  'e.possibly_affected_reason',
  'e.reachability',
  'e.reachability_evidence',
  'e.reachability_reason',
  'e.vulnerability_id',
  'e.advisory_ids',
  'e.affected_ranges',
  'e.fixed_versions',
  'e.files',
  'e.status',
  'e.justification',
  'e.status_reason',
  'e.accepted_until',
  'e.status_changed_at',
  'e.status_changed_by_token_id',
  'e.fixed_reason',
  'e.first_seen_at',
  'e.last_seen_at',
  'e.fixed_at',
  'e.reintroduced_count',
  'e.last_scan_id',
  'e.triage_rule_id',
  'e.created_at',
  'e.updated_at',
  'v.kind',
  'v.canonical_id',
  'v.aliases',
  'v.summary',
  'v.severity_rating',
  'v.severity_score',
  'v.severity_vector',
  'p.purl',
] as const;

export async function listExposures(
  db: Kysely<DB>,
  filter: ExposureFilter,
  page: TakeSkip,
): Promise<TakeSkipPage<ExposureRow>> {
  const listed = await takeSkipPage(
    filtered(db, filter),
    (query) => query.select(COLUMNS).orderBy('e.first_seen_at', 'desc').orderBy('e.id', 'desc'),
    page,
  );
  return { rows: listed.rows as ExposureRow[], total: listed.total };
}

export async function findExposure(db: Kysely<DB>, id: string): Promise<ExposureRow | undefined> {
  const row = await base(db).select(COLUMNS).where('e.id', '=', id).executeTakeFirst();
  return row as ExposureRow | undefined;
}

/** Locks one exposure for a status change (FOR UPDATE), without the joined columns. */
export async function lockExposure(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('vulnerability_exposures')
    .select(['id', 'status', 'accepted_until', 'repository_id', 'package_id'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Reopens the tenant's acceptances whose expiry has passed (status `open`, acceptance kept in
 * the audit entry), each with an audit entry by the system, and emits `exposures.reopened` for
 * them in the same transaction (an alert rule on reopened exposures hears of it). Returns how
 * many reopened.
 */
export async function reopenExpiredAcceptances(db: Kysely<DB>, tenantId: string): Promise<number> {
  const expired = await db
    .selectFrom('vulnerability_exposures')
    .select([...EVENT_COLUMNS, 'justification', 'status_reason', 'accepted_until'])
    .select(['repository_id', statusStamp()])
    .where('status', '=', 'accepted_risk')
    .where('accepted_until', '<=', sql<Date>`now()`)
    .execute();
  const reopenedIds = new Set(
    await changeStatusBySystem(
      db,
      'vulnerability_exposure.acceptance_expired',
      expired.map((row) => ({
        id: row.id,
        from: 'accepted_risk',
        // An acceptance extended since this read keeps its new expiry.
        stamp: row.status_stamp,
        to: 'open',
        // The acceptance's reason and expiry stay on the exposure, and go into the audit entry.
        justification: row.justification,
        reason: row.status_reason,
        acceptedUntil: row.accepted_until,
        triageRuleId: null,
        details: { acceptedUntilUtc: row.accepted_until, reason: row.status_reason },
      })),
    ),
  );
  const byRepository = new Map<string, ChangedExposure[]>();
  for (const row of expired) {
    if (!reopenedIds.has(row.id)) continue;
    const list = byRepository.get(row.repository_id) ?? [];
    list.push(changedExposure(row));
    byRepository.set(row.repository_id, list);
  }
  for (const [repositoryId, reopened] of byRepository) {
    await emitExposureEvents(db, { tenantId, repositoryId }, { opened: [], reopened });
  }
  await emitStatusChanged(
    db,
    tenantId,
    [...byRepository].flatMap(([repositoryId, reopened]) =>
      reopened.map((e) => ({ repositoryId, packageId: e.packageId })),
    ),
  );
  return reopenedIds.size;
}

export interface StatusChange {
  status: ExposureStatus;
  justification: string | null;
  reason: string | null;
  acceptedUntil: Date | null;
  actorTokenId: string;
}

export async function updateExposureStatus(
  db: Kysely<DB>,
  id: string,
  change: StatusChange,
): Promise<void> {
  await db
    .updateTable('vulnerability_exposures')
    .set({
      status: change.status,
      justification: change.justification,
      status_reason: change.reason,
      accepted_until: change.acceptedUntil,
      status_changed_at: sql<Date>`now()`,
      status_changed_by_token_id: change.actorTokenId,
      // A person's decision replaces the rule's.
      triage_rule_id: null,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .execute();
}

/** Tenants that have an acceptance past its expiry (system connection, for the schedule). */
export async function tenantsWithExpiredAcceptances(system: Kysely<DB>): Promise<string[]> {
  const rows = await system
    .selectFrom('vulnerability_exposures')
    .select('tenant_id')
    .distinct()
    .where('status', '=', 'accepted_risk')
    .where('accepted_until', '<=', sql<Date>`now()`)
    .execute();
  return rows.map((row) => row.tenant_id);
}
