import { sql } from 'kysely';
import type { TestApp } from '../test/support/test-app';

/**
 * An enriched catalogue for the policy benchmark: every `bench-pkg-*` package found by its
 * registry, with one maintainer, no licence, its version released 400 days ago, and (from
 * migration 0032 on) the risk inputs enrichment stores, so the facts carry registry-backed risk
 * indicators (single-maintainer, no-licence) as they do for a real repository.
 */
export async function seedBenchCatalogue(t: TestApp): Promise<void> {
  const db = t.database.system;
  await sql`
    INSERT INTO package_metadata (package_id, status, latest_stable, latest, maintainers,
      maintainer_changes, notes, fetched_at, changed_at, last_release_at, install_scripts)
    SELECT id, 'found', '1.0.0', '1.0.0', ARRAY['bench'], '[]'::jsonb, '[]'::jsonb, now(), now(),
      now() - interval '400 days', ARRAY[]::text[]
    FROM packages WHERE name LIKE 'bench-pkg-%'
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO package_versions (package_id, version, ordinal, published_at, yanked, prerelease)
    SELECT id, '1.0.0', 0, now() - interval '400 days', false, false
    FROM packages WHERE name LIKE 'bench-pkg-%'
    ON CONFLICT DO NOTHING`.execute(db);
  const column = await sql<{ present: boolean }>`
    SELECT EXISTS (SELECT 1 FROM information_schema.columns
      WHERE table_name = 'package_metadata' AND column_name = 'risk_inputs') AS present`.execute(
    db,
  );
  if (!column.rows[0]?.present) return;
  await sql`
    UPDATE package_metadata m SET risk_inputs = jsonb_build_object(
      'newestRelease', jsonb_build_object('version', '1.0.0',
        'publishedAt', to_char(m.last_release_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
      'latestMaintainerChange', null)
    FROM packages p WHERE p.id = m.package_id AND p.name LIKE 'bench-pkg-%'`.execute(db);
}
