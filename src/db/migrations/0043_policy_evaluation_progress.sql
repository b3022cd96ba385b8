-- What a repository's violations are up to date with (docs/policies.md#ci-gate), so the CI gate
-- can wait for pending evaluations instead of reading violations a running job is about to change.
--
-- policy_repository_versions: the version of each policy last evaluated over every dependency of
-- the repository (a policy's own evaluation, a first or complete evaluation; a policy that does
-- not apply there counts, its violations resolved). A policy created or changed is pending in a
-- repository until its row reaches the policy's version. Self-healing: any later complete
-- evaluation records the versions it saw.
CREATE TABLE policy_repository_versions (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  repository_id uuid NOT NULL,
  policy_id uuid NOT NULL,
  version integer NOT NULL,
  evaluated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, repository_id, policy_id),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, policy_id) REFERENCES policies (tenant_id, id) ON DELETE CASCADE
);

-- policy_evaluation_requests: an evaluation asked for one repository because a fact changed (an
-- exposure's status, a drift snapshot), written with the job in the transaction that changed the
-- fact and deleted by the evaluation that did it (or by a later evaluation of every dependency,
-- which covers it), in the transaction that writes the violations.
CREATE TABLE policy_evaluation_requests (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  repository_id uuid NOT NULL,
  reason text NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX policy_evaluation_requests_by_repository
  ON policy_evaluation_requests (tenant_id, repository_id, requested_at);

-- Policies evaluated before this migration: their versions stand as evaluated where the
-- repository's violations were written by them (the gate of an existing installation does not
-- wait for evaluations that already happened).
INSERT INTO policy_repository_versions (tenant_id, repository_id, policy_id, version)
SELECT p.tenant_id, s.repository_id, p.id, p.version
FROM policies p JOIN policy_evaluation_states s ON s.tenant_id = p.tenant_id;

ALTER TABLE policy_repository_versions ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_repository_versions FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON policy_repository_versions USING (tenant_id = dw_current_tenant())
  WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON policy_repository_versions TO CURRENT_USER USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON policy_repository_versions TO driftwatch_app;

ALTER TABLE policy_evaluation_requests ENABLE ROW LEVEL SECURITY;
ALTER TABLE policy_evaluation_requests FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON policy_evaluation_requests USING (tenant_id = dw_current_tenant())
  WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON policy_evaluation_requests TO CURRENT_USER USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON policy_evaluation_requests TO driftwatch_app;
