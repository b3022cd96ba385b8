-- The dashboard's repositories by last scan state (docs/workspace.md#the-rollups) counted the scan
-- named by last_scan_id, which only a completed scan sets: a repository whose latest scan failed
-- or was cancelled still showed `completed` (or `never`). last_scan_id keeps its meaning (the last
-- successful scan: the repository detail, SBOM exports and the exposures read it as such); the
-- count now follows its own column, the repository's last finished scan of any final state, set
-- by the scan store with the move that finishes the scan.
ALTER TABLE repositories ADD COLUMN last_finished_scan_id uuid;

-- A repository's keys: its criticality, and the state of its last finished scan.
CREATE OR REPLACE FUNCTION analytics_counted() RETURNS TABLE (tenant_id uuid, metric text, key text, n integer)
LANGUAGE sql STABLE AS $$
  SELECT r.tenant_id, 'repositories_by_criticality', coalesce(r.business_criticality, ''), count(*)::int
  FROM repositories r GROUP BY 1, 3
  UNION ALL
  SELECT r.tenant_id, 'repositories_by_last_scan', coalesce(s.state, 'never'), count(*)::int
  FROM repositories r LEFT JOIN scans s ON s.tenant_id = r.tenant_id AND s.id = r.last_finished_scan_id
  GROUP BY 1, 3
  UNION ALL
  SELECT v.tenant_id, 'violations_open', v.severity, count(*)::int
  FROM policy_violations v WHERE v.status = 'open' GROUP BY 1, 3
  UNION ALL
  SELECT a.tenant_id, 'alerts_open', '', count(*)::int FROM alerts a WHERE a.status = 'open' GROUP BY 1
$$;

CREATE OR REPLACE FUNCTION analytics_count_repositories() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO analytics_count_changes (tenant_id, metric, key, delta)
    SELECT k.tenant_id, k.metric, k.key, sum(k.delta)::int
    FROM counted_after r,
      analytics_repository_keys(r.tenant_id, r.business_criticality, r.last_finished_scan_id, 1) k
    GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO analytics_count_changes (tenant_id, metric, key, delta)
    SELECT k.tenant_id, k.metric, k.key, sum(k.delta)::int
    FROM (
      SELECT b.tenant_id, b.business_criticality, b.last_finished_scan_id AS scan, -1 AS change
      FROM counted_before b
      UNION ALL
      SELECT a.tenant_id, a.business_criticality, a.last_finished_scan_id, 1 FROM counted_after a
    ) r, analytics_repository_keys(r.tenant_id, r.business_criticality, r.scan, r.change) k
    GROUP BY 1, 2, 3 HAVING sum(k.delta) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION analytics_uncount_repository() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_count_changes (tenant_id, metric, key, delta)
  SELECT k.tenant_id, k.metric, k.key, k.delta
  FROM analytics_repository_keys(OLD.tenant_id, OLD.business_criticality, OLD.last_finished_scan_id, -1) k
  WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = OLD.tenant_id AND t.deletion_requested_at IS NULL);
  RETURN OLD;
END $$;

-- The scan a repository's count follows is finished, and finished states are final (the scan
-- lifecycle): its state never changes again, so the statement trigger that ran on every update of
-- `scans` (heartbeats included) to catch a counted scan changing state has nothing left to catch.
DROP TRIGGER analytics_count_last_scans ON scans;
DROP FUNCTION analytics_count_last_scans();
DROP INDEX IF EXISTS repositories_by_last_scan;

-- Each repository's latest finished scan. The update's own count changes are dropped below with
-- the rest of the metric, which is recounted from the tables.
UPDATE repositories r SET last_finished_scan_id = s.id
FROM (
  SELECT DISTINCT ON (tenant_id, repository_id) tenant_id, repository_id, id
  FROM scans WHERE state IN ('completed', 'failed', 'cancelled')
  ORDER BY tenant_id, repository_id, finished_at DESC NULLS LAST, queued_at DESC, id DESC
) s
WHERE s.tenant_id = r.tenant_id AND s.repository_id = r.id;

DELETE FROM analytics_count_changes WHERE metric = 'repositories_by_last_scan';
DELETE FROM analytics_counts WHERE metric = 'repositories_by_last_scan';
INSERT INTO analytics_counts (tenant_id, metric, key, n)
SELECT c.tenant_id, c.metric, c.key, c.n FROM analytics_counted() c
JOIN tenants t ON t.id = c.tenant_id AND t.deletion_requested_at IS NULL
WHERE c.metric = 'repositories_by_last_scan';
