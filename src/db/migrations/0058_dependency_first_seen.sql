-- When each repository first had each of its current dependencies (docs/questions.md, "what
-- changed"): a dependency generation replaces the previous one and the replaced rows are deleted,
-- so no stored scan remembers what a repository used before. The scans domain keeps this table
-- in step when a generation becomes current (src/domains/scans/dependencies/first-seen.ts): a
-- package the new generation adds gets the switch's time, one it no longer has loses its row (so
-- a dependency removed and added again is new again).
CREATE TABLE dependency_first_seen (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  repository_id uuid NOT NULL,
  package_id uuid NOT NULL,
  first_seen_at timestamptz NOT NULL,
  -- The generation (scan id) that brought it.
  first_seen_scan_id uuid NOT NULL,
  PRIMARY KEY (tenant_id, repository_id, package_id),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX dependency_first_seen_by_date ON dependency_first_seen (tenant_id, first_seen_at);

ALTER TABLE dependency_first_seen ENABLE ROW LEVEL SECURITY;
ALTER TABLE dependency_first_seen FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON dependency_first_seen USING (tenant_id = dw_current_tenant())
  WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON dependency_first_seen TO CURRENT_USER USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON dependency_first_seen TO driftwatch_app;

-- The dependencies current today: first seen at the earliest stored scan whose drift snapshot
-- lists the package for the repository, else the current generation's scan, else now.
INSERT INTO dependency_first_seen (tenant_id, repository_id, package_id, first_seen_at, first_seen_scan_id)
SELECT d.tenant_id, d.repository_id, d.package_id,
       coalesce(
         (SELECT min(coalesce(s.finished_at, s.queued_at))
            FROM dependency_drift dd
            JOIN scans s ON s.tenant_id = dd.tenant_id AND s.id = dd.scan_id
           WHERE dd.tenant_id = d.tenant_id AND dd.repository_id = d.repository_id
             AND dd.package_id = d.package_id),
         (SELECT coalesce(s.finished_at, s.queued_at) FROM scans s
           WHERE s.tenant_id = d.tenant_id AND s.id = d.scan_id),
         now()),
       d.scan_id
  FROM repository_dependency_rows d
  JOIN repositories r
    ON r.tenant_id = d.tenant_id AND r.id = d.repository_id AND r.dependency_scan_id = d.scan_id
 GROUP BY d.tenant_id, d.repository_id, d.package_id, d.scan_id
ON CONFLICT DO NOTHING;
