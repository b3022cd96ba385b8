-- Import-level reachability (docs/reachability.md). A scan records, per npm / PyPI / Go package
-- of the repository, whether the repository's own code imports it; exposure matching copies the
-- fact onto each exposure so that exposures can be filtered by it and policies can use it.

CREATE TABLE repository_reachability (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  repository_id uuid NOT NULL,
  -- The scan that computed it (the repository's latest completed scan of a checked-out tree).
  scan_id uuid NOT NULL,
  ecosystem text NOT NULL,
  name text NOT NULL,
  -- 'imported' | 'not_imported' | 'unknown'
  reachability text NOT NULL CHECK (reachability IN ('imported', 'not_imported', 'unknown')),
  -- { file, line, import, chain } for imported, else null
  evidence jsonb,
  reason text,
  PRIMARY KEY (tenant_id, repository_id, ecosystem, name),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);

ALTER TABLE repository_reachability ENABLE ROW LEVEL SECURITY;
ALTER TABLE repository_reachability FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON repository_reachability USING (tenant_id = dw_current_tenant())
  WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON repository_reachability TO CURRENT_USER USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON repository_reachability TO driftwatch_app;

ALTER TABLE vulnerability_exposures
  ADD COLUMN reachability text NOT NULL DEFAULT 'unknown'
    CHECK (reachability IN ('imported', 'not_imported', 'unknown')),
  ADD COLUMN reachability_evidence jsonb,
  ADD COLUMN reachability_reason text;
CREATE INDEX vulnerability_exposures_by_reachability
  ON vulnerability_exposures (tenant_id, reachability);
