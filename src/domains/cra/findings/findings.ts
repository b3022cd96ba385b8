import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../../../db/schema';
import type { CraClassification } from '../tables';

/** The CRA state of a finding (docs/cra.md#findings). */
export const FINDING_STATES = [
  'open',
  'under_assessment',
  'remediated',
  'not_exploitable',
  'reported',
] as const;
export type FindingState = (typeof FINDING_STATES)[number];

export type FindingSource = 'vulnerability' | 'policy_violation';

export interface FindingFilters {
  productId?: string;
  classification?: CraClassification;
  state?: FindingState;
}

export interface KnownExploitedRef {
  cveId: string;
  dateAdded: string;
  dueDate: string | null;
  knownRansomwareCampaignUse: string | null;
}

/** One finding: an exposure or a policy violation of one of a product's repositories. */
export interface CraFinding {
  findingId: string;
  source: FindingSource;
  productId: string;
  productClass: CraClassification;
  repositoryId: string;
  ecosystem: string;
  packageName: string;
  version: string | null;
  vulnerabilityId: string | null;
  canonicalId: string | null;
  policyId: string | null;
  severity: string | null;
  state: FindingState;
  /** Why it is not exploitable (the VEX justification and the reason), else null. */
  justification: string | null;
  /** The exposure's triage status or the violation's status it follows. */
  sourceStatus: string;
  activelyExploited: boolean;
  knownExploited: KnownExploitedRef | null;
  /** Whether the advisory names a fixed version (null for policy violations). */
  fixReleased: boolean | null;
  fixedVersions: string[];
  detectedAtUtc: string;
  remediatedAtUtc: string | null;
  reportedAtUtc: string | null;
}

interface FindingRow {
  finding_id: string;
  source: FindingSource;
  product_id: string;
  product_class: CraClassification;
  repository_id: string;
  ecosystem: string;
  package_name: string;
  version: string;
  vulnerability_id: string | null;
  canonical_id: string | null;
  policy_id: string | null;
  severity: string | null;
  state: FindingState;
  justification: string | null;
  source_status: string;
  kev_cve_id: string | null;
  kev_date_added: string | null;
  kev_due_date: string | null;
  kev_ransomware: string | null;
  fixed_versions: string[] | null;
  detected_at: Date;
  remediated_at: Date | null;
  reported_at: Date | null;
}

/**
 * Every finding of the tenant's products as one derived relation. Exposure triage maps onto the
 * CRA states: fixed → remediated; not_affected and false_positive → not_exploitable (with the
 * justification); a product vulnerability reported under Article 14 → reported; investigating →
 * under_assessment; open, affected and accepted_risk → open. Policy violations: resolved →
 * remediated; dismissed and excepted → not_exploitable; acknowledged → under_assessment.
 */
function findingsRelation(): RawBuilder<FindingRow> {
  return sql<FindingRow>`(
    SELECT e.id AS finding_id, 'vulnerability' AS source, p.id AS product_id,
      p.classification AS product_class, e.repository_id, e.ecosystem, e.package_name, e.version,
      e.vulnerability_id, v.canonical_id, NULL::uuid AS policy_id, v.severity_rating AS severity,
      CASE
        WHEN e.status = 'fixed' THEN 'remediated'
        WHEN e.status IN ('not_affected', 'false_positive') THEN 'not_exploitable'
        WHEN x.reported_at IS NOT NULL THEN 'reported'
        WHEN e.status = 'investigating' THEN 'under_assessment'
        ELSE 'open'
      END AS state,
      CASE
        WHEN e.status = 'not_affected' THEN concat_ws(': ', e.justification, e.status_reason)
        WHEN e.status = 'false_positive' THEN concat_ws(': ', 'false_positive', e.status_reason)
      END AS justification,
      e.status AS source_status,
      k.cve_id AS kev_cve_id, to_char(k.date_added, 'YYYY-MM-DD') AS kev_date_added,
      to_char(k.due_date, 'YYYY-MM-DD') AS kev_due_date,
      k.known_ransomware_campaign_use AS kev_ransomware,
      e.fixed_versions, e.first_seen_at AS detected_at, e.fixed_at AS remediated_at,
      x.reported_at
    FROM cra_products p
    JOIN cra_product_repositories pr ON pr.tenant_id = p.tenant_id AND pr.product_id = p.id
    JOIN vulnerability_exposures e
      ON e.tenant_id = pr.tenant_id AND e.repository_id = pr.repository_id
    JOIN vulnerabilities v ON v.id = e.vulnerability_id
    LEFT JOIN LATERAL (
      SELECT kev.* FROM known_exploited_vulnerabilities kev
      WHERE kev.cve_id = ANY(array_append(v.aliases, v.canonical_id))
      ORDER BY kev.cve_id LIMIT 1
    ) k ON true
    LEFT JOIN cra_exploitations x ON x.tenant_id = p.tenant_id AND x.product_id = p.id
      AND x.vulnerability_id = e.vulnerability_id
    UNION ALL
    SELECT pv.id, 'policy_violation', p.id, p.classification, pv.repository_id, pv.ecosystem,
      pv.package_name, pv.version, NULL::uuid, NULL, pv.policy_id, pv.severity,
      CASE pv.status
        WHEN 'resolved' THEN 'remediated'
        WHEN 'dismissed' THEN 'not_exploitable'
        WHEN 'excepted' THEN 'not_exploitable'
        WHEN 'acknowledged' THEN 'under_assessment'
        ELSE 'open'
      END,
      CASE WHEN pv.status IN ('dismissed', 'excepted')
        THEN concat_ws(': ', pv.status, pv.status_reason) END,
      pv.status, NULL, NULL, NULL, NULL, NULL, pv.detected_at, pv.resolved_at, NULL
    FROM cra_products p
    JOIN cra_product_repositories pr ON pr.tenant_id = p.tenant_id AND pr.product_id = p.id
    JOIN policy_violations pv
      ON pv.tenant_id = pr.tenant_id AND pv.repository_id = pr.repository_id
  )`;
}

function whereOf(filters: FindingFilters) {
  const conditions = [sql`true`];
  if (filters.productId) conditions.push(sql`f.product_id = ${filters.productId}::uuid`);
  if (filters.classification) conditions.push(sql`f.product_class = ${filters.classification}`);
  if (filters.state) conditions.push(sql`f.state = ${filters.state}`);
  return sql.join(conditions, sql` AND `);
}

function present(row: FindingRow): CraFinding {
  const fixed = row.fixed_versions ?? [];
  return {
    findingId: row.finding_id,
    source: row.source,
    productId: row.product_id,
    productClass: row.product_class,
    repositoryId: row.repository_id,
    ecosystem: row.ecosystem,
    packageName: row.package_name,
    version: row.version === '' ? null : row.version,
    vulnerabilityId: row.vulnerability_id,
    canonicalId: row.canonical_id,
    policyId: row.policy_id,
    severity: row.severity,
    state: row.state,
    justification: row.justification,
    sourceStatus: row.source_status,
    activelyExploited: row.kev_cve_id !== null,
    knownExploited: row.kev_cve_id
      ? {
          cveId: row.kev_cve_id,
          dateAdded: row.kev_date_added ?? '',
          dueDate: row.kev_due_date,
          knownRansomwareCampaignUse: row.kev_ransomware,
        }
      : null,
    fixReleased: row.source === 'vulnerability' ? fixed.length > 0 : null,
    fixedVersions: fixed,
    detectedAtUtc: new Date(row.detected_at).toISOString(),
    remediatedAtUtc: row.remediated_at ? new Date(row.remediated_at).toISOString() : null,
    reportedAtUtc: row.reported_at ? new Date(row.reported_at).toISOString() : null,
  };
}

/**
 * The findings of the tenant's products (docs/cra.md#findings), newest first, in the caller's
 * tenant transaction. Without `page`, all of them (the report pack of one product).
 */
export async function listFindings(
  db: Kysely<DB>,
  filters: FindingFilters,
  page?: { take: number; skip: number },
): Promise<{ items: CraFinding[]; total: number }> {
  const where = whereOf(filters);
  const paging = page ? sql`LIMIT ${page.take} OFFSET ${page.skip}` : sql``;
  const { rows } = await sql<FindingRow>`
    SELECT f.* FROM ${findingsRelation()} f WHERE ${where}
    ORDER BY f.detected_at DESC, f.finding_id DESC, f.product_id ${paging}`.execute(db);
  const items = rows.map(present);
  if (!page) return { items, total: items.length };
  const { rows: counted } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM ${findingsRelation()} f WHERE ${where}`.execute(db);
  return { items, total: Number(counted[0]?.n ?? 0) };
}
