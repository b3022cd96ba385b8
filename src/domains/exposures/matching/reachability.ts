import { type Kysely, sql } from 'kysely';
import type { DB } from '../../../db/schema';

/**
 * Copies the repository's import-level reachability (stored by its latest scan,
 * docs/reachability.md) onto its exposures; exposures of packages without a fact (other
 * ecosystems, SBOM imports, no scan yet) are `unknown`. Rows already right are not written.
 */
export async function applyReachability(db: Kysely<DB>, repositoryId: string): Promise<void> {
  await sql`
    UPDATE vulnerability_exposures e SET
      reachability = x.reachability,
      reachability_evidence = x.evidence,
      reachability_reason = x.reason
    FROM (
      SELECT e2.tenant_id, e2.id, COALESCE(r.reachability, 'unknown') AS reachability,
             r.evidence, r.reason
        FROM vulnerability_exposures e2
        LEFT JOIN repository_reachability r
          ON r.tenant_id = e2.tenant_id AND r.repository_id = e2.repository_id
         AND r.ecosystem = e2.ecosystem AND r.name = e2.package_name
       WHERE e2.repository_id = ${repositoryId}
    ) x
    WHERE e.tenant_id = x.tenant_id AND e.id = x.id
      AND (e.reachability IS DISTINCT FROM x.reachability
        OR e.reachability_evidence IS DISTINCT FROM x.evidence
        OR e.reachability_reason IS DISTINCT FROM x.reason)`.execute(db);
}
