/**
 * The large tenant of `npm run bench:analytics` (bench/analytics.ts), written straight into the
 * tables with set-based SQL: repositories with one completed scan each, their dependency rows,
 * a drift snapshot per repository, a policy with open and settled violations, and open and
 * acknowledged alerts, so that every number of the dashboard has rows behind it.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../src/db/schema';

export interface AnalyticsTenantSize {
  repositories: number;
  dependenciesPerRepository: number;
  /** Violations per repository (a fifth of them settled: acknowledged, dismissed, resolved). */
  violationsPerRepository: number;
  alerts: number;
}

export async function generateAnalyticsTenant(
  db: Kysely<DB>,
  tenantId: string,
  size: AnalyticsTenantSize,
): Promise<void> {
  await sql`INSERT INTO packages (id, ecosystem, name, purl)
    SELECT gen_random_uuid(), CASE WHEN i % 4 = 0 THEN 'PyPI' ELSE 'npm' END, 'bench-' || i,
      CASE WHEN i % 4 = 0 THEN 'pkg:pypi/bench-' ELSE 'pkg:npm/bench-' END || i
    FROM generate_series(1, 20000) i
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`INSERT INTO repositories (tenant_id, id, provider, name, full_name, clone_url, business_criticality)
    SELECT ${tenantId}::uuid, gen_random_uuid(), 'git', 'repo-' || i, 'bench/repo-' || i,
      'https://git.example.test/bench/repo-' || i || '.git',
      (ARRAY['low', 'medium', 'high', 'critical'])[1 + i % 4]
    FROM generate_series(1, ${size.repositories}) i`.execute(db);
  await sql`INSERT INTO scans (tenant_id, id, repository_id, state, trigger, queued_at, started_at, finished_at, counts_by_ecosystem)
    SELECT tenant_id, gen_random_uuid(), id, 'completed', 'manual', now(), now(), now(), '{"npm": 75, "PyPI": 25}'
    FROM repositories WHERE tenant_id = ${tenantId}::uuid`.execute(db);
  await sql`UPDATE repositories r SET last_scan_id = s.id, last_finished_scan_id = s.id,
      dependency_scan_id = s.id, last_scanned_at = now()
    FROM scans s WHERE s.tenant_id = r.tenant_id AND s.repository_id = r.id AND r.tenant_id = ${tenantId}::uuid`.execute(
    db,
  );
  await sql`INSERT INTO repository_dependency_rows (tenant_id, id, repository_id, scan_id, package_id,
      ecosystem, name, version, resolution, purl, scope, direct, file)
    SELECT s.tenant_id, gen_random_uuid(), s.repository_id, s.id, p.id, p.ecosystem, p.name, '1.0.0',
      'resolved', p.purl || '@1.0.0', 'runtime', n % 5 = 0, 'package-lock.json'
    FROM scans s
    CROSS JOIN LATERAL generate_series(1, ${size.dependenciesPerRepository}) n
    JOIN LATERAL (SELECT id, ecosystem, name, purl FROM packages
                  WHERE name = 'bench-' || (1 + (abs(hashtext(s.repository_id::text)) + n * 37) % 20000)) p ON true
    WHERE s.tenant_id = ${tenantId}::uuid`.execute(db);
  await sql`INSERT INTO repository_drift (tenant_id, repository_id, scan_id, scanned_at, computed_at,
      dependency_count, measured_count, pending_count, outdated_count, libyear_total, major_behind,
      minor_behind, patch_behind, deprecated_count, yanked_count, end_of_life_count)
    SELECT tenant_id, repository_id, id, now(), now(), ${size.dependenciesPerRepository},
      ${size.dependenciesPerRepository}, 0, 40, random() * 200, 10, 15, 15, 2, 0, 1
    FROM scans WHERE tenant_id = ${tenantId}::uuid`.execute(db);
  await generateViolationsAndAlerts(db, tenantId, size);
}

async function generateViolationsAndAlerts(
  db: Kysely<DB>,
  tenantId: string,
  size: AnalyticsTenantSize,
): Promise<void> {
  const policyId = '00000000-0000-4000-8000-00000000be0c';
  await sql`INSERT INTO policies (tenant_id, id, name, condition, severity, action)
    VALUES (${tenantId}::uuid, ${policyId}::uuid, 'bench', 'true', 'high', 'warn')`.execute(db);
  // The first violationsPerRepository dependencies of each repository, with a mix of severities.
  await sql`INSERT INTO policy_violations (tenant_id, id, policy_id, repository_id, package_id,
      version, ecosystem, package_name, purl, severity, action, status, policy_version, facts)
    SELECT d.tenant_id, gen_random_uuid(), ${policyId}::uuid, d.repository_id, d.package_id,
      d.version, d.ecosystem, d.name, d.purl,
      (ARRAY['critical', 'high', 'medium', 'low'])[1 + d.n % 4],
      'warn', CASE WHEN d.n % 5 = 0 THEN (ARRAY['acknowledged', 'dismissed', 'resolved'])[1 + d.n % 3] ELSE 'open' END,
      1, '{"dependency": {"direct": true}}'::jsonb
    FROM (SELECT r.*, row_number() OVER (PARTITION BY r.repository_id ORDER BY r.id) AS n
          FROM repository_dependency_rows r WHERE r.tenant_id = ${tenantId}::uuid) d
    WHERE d.n <= ${size.violationsPerRepository}
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`INSERT INTO alerts (tenant_id, id, rule_id, rule_name, kind, severity, status, subject,
      title, repository_ids, payload)
    SELECT ${tenantId}::uuid, gen_random_uuid(), gen_random_uuid(), 'bench', 'vulnerability.new',
      'high', CASE WHEN i % 3 = 0 THEN 'acknowledged' ELSE 'open' END, 'subject-' || i,
      'Bench alert ' || i, '{}', '{}'::jsonb
    FROM generate_series(1, ${size.alerts}) i`.execute(db);
}
