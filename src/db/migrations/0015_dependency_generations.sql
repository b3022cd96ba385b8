-- Dependency generations (docs/repositories-and-scans.md, "Storing dependencies"). A scan stores
-- its dependencies in bounded chunks, each its own short transaction, tagged with its scan id
-- (the generation); the repository then switches to that generation in one short transaction,
-- and the replaced generation is deleted in chunks afterwards. Readers keep the name
-- `repository_dependencies`: it becomes a view that shows only each repository's current
-- generation, so no reader (present or future) can see a half-stored set. Writes go to the
-- table `repository_dependency_rows` (the scans domain only).

ALTER TABLE repositories ADD COLUMN dependency_scan_id uuid;

-- The set stored so far is each repository's current generation (one scan id per repository:
-- the previous store replaced everything in one transaction).
UPDATE repositories r
   SET dependency_scan_id = (
     SELECT d.scan_id FROM repository_dependencies d
      WHERE d.tenant_id = r.tenant_id AND d.repository_id = r.id
      LIMIT 1);

ALTER TABLE repository_dependencies RENAME TO repository_dependency_rows;
ALTER INDEX repository_dependencies_by_repository RENAME TO repository_dependency_rows_by_repository;
ALTER INDEX repository_dependencies_by_package RENAME TO repository_dependency_rows_by_package;
-- Chunked deletes of one generation, and the view's check, find a generation's rows by scan id.
CREATE INDEX repository_dependency_rows_by_generation
  ON repository_dependency_rows (tenant_id, scan_id);

-- security_invoker: the caller's row-level security applies through the view (PostgreSQL 15+).
-- A column added to the table later needs the view re-created (its column list is fixed here).
CREATE VIEW repository_dependencies WITH (security_invoker = true) AS
  SELECT d.* FROM repository_dependency_rows d
   WHERE EXISTS (
     SELECT 1 FROM repositories r
      WHERE r.tenant_id = d.tenant_id AND r.id = d.repository_id
        AND r.dependency_scan_id = d.scan_id);
-- Read only for the service: writes name the table.
GRANT SELECT ON repository_dependencies TO driftwatch_app;

-- Generations that are not current and whose rows must go: `storing` while a scan writes its
-- chunks (abandoned if the scan stops running before the switch), `retired` once replaced.
-- The recovery sweep deletes the rows of retired and abandoned generations in chunks, then the
-- ledger row. Small: at most one storing generation per active scan plus those being deleted.
CREATE TABLE dependency_generations (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  scan_id uuid NOT NULL,
  repository_id uuid NOT NULL,
  -- 'storing' | 'retired'
  state text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, scan_id),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);

ALTER TABLE dependency_generations ENABLE ROW LEVEL SECURITY;
ALTER TABLE dependency_generations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON dependency_generations USING (tenant_id = dw_current_tenant())
  WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON dependency_generations TO CURRENT_USER USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON dependency_generations TO driftwatch_app;
