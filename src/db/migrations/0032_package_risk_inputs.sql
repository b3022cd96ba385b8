-- What the supply-chain risk indicators need of a package's version list, kept compact on its
-- metadata row (docs/policies.md#facts): the newest release by time and the maintainer change
-- on the newest release. Policy facts read it for thousands of dependencies at once instead of
-- every version row of every package. Enrichment writes it with the versions
-- (src/intel/package-catalogue/store.ts); the statement below fills it for packages fetched
-- before, with the same rules as versionRiskInputs() (src/intel/package-catalogue/risk-inputs.ts):
-- the newest non-yanked dated version (the earliest in registry order on a tie), and the first
-- recorded change of the last version in registry order, else of the latest stable. Written so
-- that running it again changes nothing.
ALTER TABLE package_metadata ADD COLUMN IF NOT EXISTS risk_inputs jsonb;

UPDATE package_metadata m
   SET risk_inputs = jsonb_build_object(
     'newestRelease', (
       SELECT jsonb_build_object(
         'version', v.version,
         'publishedAt', to_char(v.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
         FROM package_versions v
        WHERE v.package_id = m.package_id AND NOT v.yanked AND v.published_at IS NOT NULL
        ORDER BY v.published_at DESC, v.ordinal
        LIMIT 1),
     'latestMaintainerChange', (
       SELECT jsonb_build_object(
         'version', c.value->>'version',
         'previousVersion', c.value->>'previousVersion',
         'added', coalesce(c.value->'added', '[]'::jsonb))
         FROM jsonb_array_elements(m.maintainer_changes) WITH ORDINALITY AS c(value, position)
        WHERE c.value->>'version' = coalesce(
                (SELECT v.version FROM package_versions v
                  WHERE v.package_id = m.package_id ORDER BY v.ordinal DESC LIMIT 1),
                m.latest)
           OR c.value->>'version' = m.latest_stable
        ORDER BY (c.value->>'version' = coalesce(
                (SELECT v.version FROM package_versions v
                  WHERE v.package_id = m.package_id ORDER BY v.ordinal DESC LIMIT 1),
                m.latest)) DESC, c.position
        LIMIT 1))
 WHERE m.status = 'found' AND m.risk_inputs IS NULL;
