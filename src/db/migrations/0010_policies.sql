-- Policies, their violations and exceptions (docs/policies.md). Every table is tenant-owned:
-- tenant_id defaults to the scoped transaction's tenant, row-level security is enabled and forced.

CREATE TABLE policies (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  -- A CEL expression over the facts of one dependency (docs/policies.md#facts).
  condition text NOT NULL,
  -- low | medium | high | critical
  severity text NOT NULL,
  -- inform | warn | block
  action text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  -- {repositoryIds, ecosystems, businessCriticalities, lifecycleStatuses}; empty lists: all.
  scope jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- Bumped on every change of the condition, scope or enabled flag: compiled programs are cached
  -- by (id, version).
  version integer NOT NULL DEFAULT 1,
  created_by_token_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX policies_listing ON policies (tenant_id, created_at DESC, id DESC);

CREATE TABLE policy_violations (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  policy_id uuid NOT NULL,
  repository_id uuid NOT NULL,
  package_id uuid NOT NULL REFERENCES packages (id),
  -- The exact version; the declared range when not pinned; '' when unpinned.
  version text NOT NULL,
  ecosystem text NOT NULL,
  package_name text NOT NULL,
  purl text NOT NULL,
  -- Copied from the policy when the violation opened or reopened.
  severity text NOT NULL,
  action text NOT NULL,
  -- open | acknowledged | dismissed | excepted | resolved
  status text NOT NULL DEFAULT 'open',
  status_reason text,
  status_changed_at timestamptz,
  status_changed_by_token_id uuid,
  exception_id uuid,
  -- The facts that made the condition true, as of the last evaluation that found it true.
  facts jsonb NOT NULL DEFAULT '{}'::jsonb,
  policy_version integer NOT NULL,
  detected_at timestamptz NOT NULL DEFAULT now(),
  last_evaluated_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  reopened_count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, policy_id) REFERENCES policies (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX policy_violations_identity
  ON policy_violations (tenant_id, policy_id, repository_id, package_id, version);
CREATE INDEX policy_violations_listing
  ON policy_violations (tenant_id, detected_at DESC, id DESC);
CREATE INDEX policy_violations_by_repository
  ON policy_violations (tenant_id, repository_id, status);

CREATE TABLE policy_exceptions (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  policy_id uuid NOT NULL,
  -- The violation it was granted on (kept when that violation is gone: null).
  violation_id uuid,
  -- violation | repository_package | tenant_package
  scope text NOT NULL,
  repository_id uuid,
  package_id uuid NOT NULL REFERENCES packages (id),
  version text,
  reason text NOT NULL,
  expires_at timestamptz NOT NULL,
  -- active | expired
  status text NOT NULL DEFAULT 'active',
  created_by_token_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  expired_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, policy_id) REFERENCES policies (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX policy_exceptions_listing ON policy_exceptions (tenant_id, created_at DESC, id DESC);
CREATE INDEX policy_exceptions_expiry ON policy_exceptions (expires_at) WHERE status = 'active';

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['policies', 'policy_violations', 'policy_exceptions']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = dw_current_tenant())'
      ' WITH CHECK (tenant_id = dw_current_tenant())', t);
    EXECUTE format('CREATE POLICY service_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO driftwatch_app', t);
  END LOOP;
END $$;
