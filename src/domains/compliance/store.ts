import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB } from '../../db/schema';
import type { Period } from './period';
import type { ComplianceEvidenceArchiveTable } from './tables';

/**
 * The records evidence is computed from (docs/compliance.md#evidence), read in the caller's
 * tenant transaction: row-level security scopes every query to the tenant.
 */

export interface RepositoryRecord {
  id: string;
  fullName: string;
  createdAt: Date;
}

export async function activeRepositories(db: Kysely<DB>, end: Date): Promise<RepositoryRecord[]> {
  const rows = await db
    .selectFrom('repositories')
    .select(['id', 'full_name', 'created_at'])
    .where('lifecycle_status', '=', 'active')
    .where('created_at', '<', end)
    .orderBy('full_name')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, fullName: r.full_name, createdAt: r.created_at }));
}

export interface ScanRecord {
  id: string;
  repositoryId: string;
  state: string;
  trigger: string;
  queuedAt: Date;
  finishedAt: Date | null;
}

/** Scans queued or finished in the period. */
export async function scansOfPeriod(db: Kysely<DB>, period: Period): Promise<ScanRecord[]> {
  const rows = await db
    .selectFrom('scans')
    .select(['id', 'repository_id', 'state', 'trigger', 'queued_at', 'finished_at'])
    .where((eb) =>
      eb.or([
        eb.and([eb('queued_at', '>=', period.start), eb('queued_at', '<', period.end)]),
        eb.and([eb('finished_at', '>=', period.start), eb('finished_at', '<', period.end)]),
      ]),
    )
    .orderBy('queued_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    repositoryId: r.repository_id,
    state: r.state,
    trigger: r.trigger,
    queuedAt: r.queued_at,
    finishedAt: r.finished_at,
  }));
}

export interface ExposureRecord {
  id: string;
  repositoryId: string;
  packageName: string;
  version: string;
  vulnerability: string;
  severity: string | null;
  status: string;
  firstSeenAt: Date;
  fixedAt: Date | null;
  fixedReason: string | null;
  acceptedUntil: Date | null;
  statusChangedAt: Date | null;
  statusChangedByTokenId: string | null;
  statusReason: string | null;
}

/** Exposures that existed at some time in the period: seen before its end, not fixed before it. */
export async function exposuresOfPeriod(db: Kysely<DB>, period: Period): Promise<ExposureRecord[]> {
  const rows = await db
    .selectFrom('vulnerability_exposures as e')
    .innerJoin('vulnerabilities as v', 'v.id', 'e.vulnerability_id')
    .select([
      'e.id',
      'e.repository_id',
      'e.package_name',
      'e.version',
      'v.canonical_id',
      'v.severity_rating',
      'e.status',
      'e.first_seen_at',
      'e.fixed_at',
      'e.fixed_reason',
      'e.accepted_until',
      'e.status_changed_at',
      'e.status_changed_by_token_id',
      'e.status_reason',
    ])
    .where('e.first_seen_at', '<', period.end)
    .where((eb) => eb.or([eb('e.fixed_at', 'is', null), eb('e.fixed_at', '>=', period.start)]))
    .orderBy('e.first_seen_at')
    .orderBy('e.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    repositoryId: r.repository_id,
    packageName: r.package_name,
    version: r.version,
    vulnerability: r.canonical_id,
    severity: r.severity_rating,
    status: r.status,
    firstSeenAt: r.first_seen_at,
    fixedAt: r.fixed_at,
    fixedReason: r.fixed_reason,
    acceptedUntil: r.accepted_until,
    statusChangedAt: r.status_changed_at,
    statusChangedByTokenId: r.status_changed_by_token_id,
    statusReason: r.status_reason,
  }));
}

export interface ExceptionRecord {
  id: string;
  policyId: string;
  policyName: string | null;
  scope: string;
  repositoryId: string | null;
  packageId: string;
  reason: string;
  expiresAt: Date;
  status: string;
  createdAt: Date;
  createdByTokenId: string | null;
}

/** Policy exceptions granted in the period. */
export async function exceptionsOfPeriod(
  db: Kysely<DB>,
  period: Period,
): Promise<ExceptionRecord[]> {
  const rows = await db
    .selectFrom('policy_exceptions as x')
    .leftJoin('policies as p', 'p.id', 'x.policy_id')
    .select([
      'x.id',
      'x.policy_id',
      'p.name as policy_name',
      'x.scope',
      'x.repository_id',
      'x.package_id',
      'x.reason',
      'x.expires_at',
      'x.status',
      'x.created_at',
      'x.created_by_token_id',
    ])
    .where('x.created_at', '>=', period.start)
    .where('x.created_at', '<', period.end)
    .orderBy('x.created_at')
    .orderBy('x.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    policyId: r.policy_id,
    policyName: r.policy_name,
    scope: r.scope,
    repositoryId: r.repository_id,
    packageId: r.package_id,
    reason: r.reason,
    expiresAt: r.expires_at,
    status: r.status,
    createdAt: r.created_at,
    createdByTokenId: r.created_by_token_id,
  }));
}

/** Names of the tenant's tokens (who granted what); revoked tokens keep their row. */
export async function tokenNames(db: Kysely<DB>, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('api_tokens')
    .select(['id', 'name'])
    .where('id', 'in', unique)
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export interface PolicyRecord {
  id: string;
  name: string;
  action: string;
}

export async function enabledPolicies(db: Kysely<DB>): Promise<PolicyRecord[]> {
  return db
    .selectFrom('policies')
    .select(['id', 'name', 'action'])
    .where('enabled', '=', true)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export interface EvaluationRecord {
  scanId: string;
  loggedAt: Date;
  message: string;
}

/** The policy evaluation lines (`policies` step) of the given scans. */
export async function evaluationsOf(
  db: Kysely<DB>,
  scanIds: string[],
): Promise<EvaluationRecord[]> {
  const records: EvaluationRecord[] = [];
  for (let i = 0; i < scanIds.length; i += 1000) {
    const rows = await db
      .selectFrom('scan_logs')
      .select(['scan_id', 'logged_at', 'message'])
      .where('step', '=', 'policies')
      .where('scan_id', 'in', scanIds.slice(i, i + 1000))
      .orderBy('logged_at')
      .execute();
    for (const r of rows)
      records.push({ scanId: r.scan_id, loggedAt: r.logged_at, message: r.message });
  }
  return records;
}

export interface ViolationRecord {
  id: string;
  policyId: string;
  repositoryId: string;
  action: string;
  status: string;
  detectedAt: Date;
  resolvedAt: Date | null;
  statusChangedAt: Date | null;
}

/** Violations that existed in the period (detected before its end, not resolved before it). */
export async function violationsOfPeriod(
  db: Kysely<DB>,
  period: Period,
): Promise<ViolationRecord[]> {
  const rows = await db
    .selectFrom('policy_violations')
    .select([
      'id',
      'policy_id',
      'repository_id',
      'action',
      'status',
      'detected_at',
      'resolved_at',
      'status_changed_at',
    ])
    .where('detected_at', '<', period.end)
    .where((eb) => eb.or([eb('resolved_at', 'is', null), eb('resolved_at', '>=', period.start)]))
    .orderBy('detected_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    policyId: r.policy_id,
    repositoryId: r.repository_id,
    action: r.action,
    status: r.status,
    detectedAt: r.detected_at,
    resolvedAt: r.resolved_at,
    statusChangedAt: r.status_changed_at,
  }));
}

export interface SbomRecord {
  kind: 'export' | 'import';
  id: string;
  repositoryId: string;
  format: string;
  state: string;
  scanId: string | null;
  sha256: string | null;
  createdAt: Date;
}

/** SBOM exports and imports requested in the period. */
export async function sbomsOfPeriod(db: Kysely<DB>, period: Period): Promise<SbomRecord[]> {
  const exports = await db
    .selectFrom('sbom_exports')
    .select(['id', 'repository_id', 'format', 'state', 'scan_id', 'document_sha256', 'created_at'])
    .where('created_at', '>=', period.start)
    .where('created_at', '<', period.end)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const imports = await db
    .selectFrom('sbom_imports')
    .select([
      'id',
      'repository_id',
      'format',
      'scan_id',
      'document_sha256',
      'processed_at',
      'created_at',
    ])
    .where('created_at', '>=', period.start)
    .where('created_at', '<', period.end)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return [
    ...exports.map((r) => ({
      kind: 'export' as const,
      id: r.id,
      repositoryId: r.repository_id,
      format: r.format,
      state: r.state,
      scanId: r.scan_id,
      sha256: r.document_sha256,
      createdAt: r.created_at,
    })),
    ...imports.map((r) => ({
      kind: 'import' as const,
      id: r.id,
      repositoryId: r.repository_id,
      format: r.format,
      state: r.processed_at ? 'completed' : 'queued',
      scanId: r.scan_id,
      sha256: r.document_sha256,
      createdAt: r.created_at,
    })),
  ];
}

export interface AuditRecord {
  id: string;
  occurredAt: Date;
  action: string;
  resourceType: string;
  resourceId: string | null;
  actorTokenId: string | null;
  outcome: string;
  statusCode: number;
}

/** How many entries of the actions (exact, or prefixes ending in '.') and the latest `limit`. */
export async function auditExcerpt(
  db: Kysely<DB>,
  period: Period,
  actions: string[],
  limit: number,
): Promise<{ total: number; byAction: Record<string, number>; latest: AuditRecord[] }> {
  const base = db
    .selectFrom('audit_log')
    .where('occurred_at', '>=', period.start)
    .where('occurred_at', '<', period.end)
    .where((eb) =>
      eb.or(
        actions.map((a) =>
          a.endsWith('.')
            ? eb(sql<string>`left(action, ${a.length})`, '=', a)
            : eb('action', '=', a),
        ),
      ),
    );
  const counts = await base
    .select(['action', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('action')
    .orderBy('action')
    .execute();
  const latest = await base
    .select([
      'id',
      'occurred_at',
      'action',
      'resource_type',
      'resource_id',
      'actor_token_id',
      'outcome',
      'status_code',
    ])
    .orderBy('occurred_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const byAction = Object.fromEntries(counts.map((c) => [c.action, Number(c.n)]));
  return {
    total: counts.reduce((sum, c) => sum + Number(c.n), 0),
    byAction,
    latest: latest.map((r) => ({
      id: r.id,
      occurredAt: r.occurred_at,
      action: r.action,
      resourceType: r.resource_type,
      resourceId: r.resource_id,
      actorTokenId: r.actor_token_id,
      outcome: r.outcome,
      statusCode: r.status_code,
    })),
  };
}

// Archives

export type ArchiveRow = Omit<Selectable<ComplianceEvidenceArchiveTable>, 'archive'>;

const ARCHIVE_SUMMARY = [
  'tenant_id',
  'id',
  'period_start',
  'period_end',
  'state',
  'requested_by_token_id',
  'archive_bytes',
  'archive_sha256',
  'manifest_sha256',
  'signing_key_id',
  'error',
  'created_at',
  'started_at',
  'finished_at',
] as const;

export async function insertArchive(
  db: Kysely<DB>,
  values: { id: string; period: Period; tokenId: string | null },
): Promise<ArchiveRow> {
  return db
    .insertInto('compliance_evidence_archives')
    .values({
      id: values.id,
      period_start: values.period.start,
      period_end: values.period.end,
      requested_by_token_id: values.tokenId,
    })
    .returning(ARCHIVE_SUMMARY)
    .executeTakeFirstOrThrow();
}

export async function findArchive(db: Kysely<DB>, id: string): Promise<ArchiveRow | undefined> {
  return db
    .selectFrom('compliance_evidence_archives')
    .select(ARCHIVE_SUMMARY)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function archiveBytes(db: Kysely<DB>, id: string): Promise<Buffer | null> {
  const row = await db
    .selectFrom('compliance_evidence_archives')
    .select('archive')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.archive ?? null;
}

export async function listArchives(
  db: Kysely<DB>,
  page: { take: number; skip: number },
): Promise<{ rows: ArchiveRow[]; total: number }> {
  const rows = await db
    .selectFrom('compliance_evidence_archives')
    .select(ARCHIVE_SUMMARY)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.take)
    .offset(page.skip)
    .execute();
  const count = await db
    .selectFrom('compliance_evidence_archives')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

/** Marks a queued archive generating; undefined when it is not queued (a retry of a done one). */
export async function claimArchive(db: Kysely<DB>, id: string): Promise<ArchiveRow | undefined> {
  return db
    .updateTable('compliance_evidence_archives')
    .set({ state: 'generating', started_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('state', 'in', ['queued', 'generating'])
    .returning(ARCHIVE_SUMMARY)
    .executeTakeFirst();
}

export async function finishArchive(
  db: Kysely<DB>,
  id: string,
  result:
    | { archive: Buffer; sha256: string; manifestSha256: string; keyId: string }
    | { error: string },
): Promise<void> {
  const values =
    'error' in result
      ? { state: 'failed' as const, error: result.error }
      : {
          state: 'ready' as const,
          archive: result.archive,
          archive_bytes: result.archive.length,
          archive_sha256: result.sha256,
          manifest_sha256: result.manifestSha256,
          signing_key_id: result.keyId,
          error: null,
        };
  await db
    .updateTable('compliance_evidence_archives')
    .set({ ...values, finished_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}
