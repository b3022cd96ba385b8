-- What every policy last saw of each dependency of a repository (docs/policies.md#evaluation): a
-- digest of the facts of each (package, version) at the last evaluation by the tenant's whole
-- policy set. An evaluation after a scan, an exposure refresh or another change compares the
-- facts it computes with these digests and evaluates only the dependencies whose facts changed;
-- the violations of the others are left as they are. One document per repository (object
-- "<package id> <version>" → digest): 5,000 dependencies are one row to read and patch, not 5,000
-- rows to write on a repository's first evaluation.

CREATE TABLE policy_evaluation_states (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  repository_id uuid NOT NULL,
  digests jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, repository_id),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);

ALTER TABLE policy_evaluation_states ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_evaluation_states FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON policy_evaluation_states USING (tenant_id = dw_current_tenant())
  WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON policy_evaluation_states TO CURRENT_USER USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON policy_evaluation_states TO driftwatch_app;
