-- Triage rules that carry across versions and exposures (docs/triage.md), the rule named on each
-- exposure it settled, and malicious-package counts in the dashboard rollup.

CREATE TABLE triage_rules (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  -- The identifier as given (CVE, GHSA, MAL-, ...): matched against a vulnerability's canonical
  -- id and aliases, so the rule follows alias merges and may name an advisory not stored yet.
  vulnerability_ref text NOT NULL,
  -- Spec spelling of the ecosystem (npm, PyPI, Cargo, ...) and the name normalised its way.
  ecosystem text NOT NULL,
  package_name text NOT NULL,
  -- A purl-spec `vers:` range of the versions it covers; null means every version.
  version_range text,
  -- Repositories it applies to; an empty array means every repository of the tenant.
  repository_ids uuid[] NOT NULL DEFAULT '{}',
  -- 'not_affected' | 'false_positive' | 'accepted_risk'
  status text NOT NULL,
  justification text,
  reason text,
  -- accepted_risk only: when the rule and the acceptances it made end.
  expires_at timestamptz,
  -- Where it came from: 'api' or 'vex' (an imported OpenVEX / CycloneDX statement).
  origin text NOT NULL DEFAULT 'api',
  created_by_token_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  revoked_by_token_id uuid,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX triage_rules_by_package ON triage_rules (tenant_id, ecosystem, package_name)
  WHERE revoked_at IS NULL;
CREATE INDEX triage_rules_recent ON triage_rules (tenant_id, created_at DESC, id DESC);

ALTER TABLE triage_rules ENABLE ROW LEVEL SECURITY;
ALTER TABLE triage_rules FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON triage_rules USING (tenant_id = dw_current_tenant())
  WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON triage_rules TO CURRENT_USER USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON triage_rules TO driftwatch_app;

-- The rule whose decision the exposure carries (cleared when a person changes its status, when
-- the rule is revoked, or when the exposure reopens).
ALTER TABLE vulnerability_exposures ADD COLUMN IF NOT EXISTS triage_rule_id uuid;
CREATE INDEX IF NOT EXISTS vulnerability_exposures_by_rule
  ON vulnerability_exposures (tenant_id, triage_rule_id) WHERE triage_rule_id IS NOT NULL;

-- Unresolved malicious-package exposures, kept apart from the severity counts.
ALTER TABLE analytics_repository_state
  ADD COLUMN IF NOT EXISTS exposures_malicious integer NOT NULL DEFAULT 0;
