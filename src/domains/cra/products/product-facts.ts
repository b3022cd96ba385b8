import { type Kysely, sql } from 'kysely';
import type { DB } from '../../../db/schema';
import { LIVE_EXPOSURE_STATUSES } from '../findings/exploitation';

/** An SBOM is current when the scan that stored the inventory finished within this many days. */
export const SBOM_CURRENT_DAYS = 30;
/** High and critical exposures with a fix should be remediated within this many days. */
export const REMEDIATION_DAYS = 30;

/** What the service's data shows about one product, for Annex I and the duties. */
export interface ProductFacts {
  repositories: number;
  /** Repositories with a stored dependency inventory (an SBOM can be exported). */
  withInventory: number;
  /** ... whose inventory comes from a scan that finished within SBOM_CURRENT_DAYS. */
  withCurrentInventory: number;
  liveExposures: number;
  untriagedExposures: number;
  liveCriticalWithFix: number;
  liveActivelyExploited: number;
  overdueWithFix: number;
  remediatedHighCritical: number;
  medianDaysToRemediate: number | null;
}

/** One round trip of counts over the product's repositories and their exposures. */
export async function productFacts(db: Kysely<DB>, productId: string): Promise<ProductFacts> {
  const { rows } = await sql<Record<keyof ProductFacts, number | null>>`
    WITH repos AS (
      SELECT r.id, r.dependency_scan_id, s.finished_at
      FROM cra_product_repositories pr
      JOIN repositories r ON r.tenant_id = pr.tenant_id AND r.id = pr.repository_id
      LEFT JOIN scans s ON s.tenant_id = r.tenant_id AND s.id = r.dependency_scan_id
      WHERE pr.product_id = ${productId}::uuid
    ), exposures AS (
      SELECT e.status, e.first_seen_at, e.fixed_at, e.fixed_versions, v.severity_rating,
        EXISTS (SELECT 1 FROM known_exploited_vulnerabilities k
          WHERE k.cve_id = ANY(array_append(v.aliases, v.canonical_id))) AS exploited
      FROM vulnerability_exposures e
      JOIN repos ON repos.id = e.repository_id
      JOIN vulnerabilities v ON v.id = e.vulnerability_id
    )
    SELECT
      (SELECT count(*) FROM repos)::int AS repositories,
      (SELECT count(*) FROM repos WHERE dependency_scan_id IS NOT NULL)::int AS "withInventory",
      (SELECT count(*) FROM repos WHERE finished_at > now() - make_interval(days => ${SBOM_CURRENT_DAYS}))::int
        AS "withCurrentInventory",
      (SELECT count(*) FROM exposures WHERE status = ANY(${LIVE_EXPOSURE_STATUSES}::text[]))::int
        AS "liveExposures",
      (SELECT count(*) FROM exposures WHERE status = 'open')::int AS "untriagedExposures",
      (SELECT count(*) FROM exposures WHERE status = ANY(${LIVE_EXPOSURE_STATUSES}::text[])
        AND severity_rating = 'critical' AND fixed_versions <> '{}')::int AS "liveCriticalWithFix",
      (SELECT count(*) FROM exposures WHERE status = ANY(${LIVE_EXPOSURE_STATUSES}::text[])
        AND exploited)::int AS "liveActivelyExploited",
      (SELECT count(*) FROM exposures WHERE status = ANY(${LIVE_EXPOSURE_STATUSES}::text[])
        AND severity_rating IN ('high', 'critical') AND fixed_versions <> '{}'
        AND first_seen_at < now() - make_interval(days => ${REMEDIATION_DAYS}))::int AS "overdueWithFix",
      (SELECT count(*) FROM exposures WHERE status = 'fixed'
        AND severity_rating IN ('high', 'critical'))::int AS "remediatedHighCritical",
      (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM fixed_at - first_seen_at) / 86400)
        FROM exposures WHERE status = 'fixed' AND severity_rating IN ('high', 'critical'))
        AS "medianDaysToRemediate"`.execute(db);
  const row = rows[0];
  const n = (v: number | null | undefined) => Number(v ?? 0);
  return {
    repositories: n(row?.repositories),
    withInventory: n(row?.withInventory),
    withCurrentInventory: n(row?.withCurrentInventory),
    liveExposures: n(row?.liveExposures),
    untriagedExposures: n(row?.untriagedExposures),
    liveCriticalWithFix: n(row?.liveCriticalWithFix),
    liveActivelyExploited: n(row?.liveActivelyExploited),
    overdueWithFix: n(row?.overdueWithFix),
    remediatedHighCritical: n(row?.remediatedHighCritical),
    medianDaysToRemediate:
      row?.medianDaysToRemediate === null || row?.medianDaysToRemediate === undefined
        ? null
        : Math.round(Number(row.medianDaysToRemediate) * 10) / 10,
  };
}
