-- Compliance control evidence (docs/compliance.md): the tenant's remediation targets, evidence
-- archives, and the service's archive signing key. Tenant tables: tenant_id defaults to the
-- scoped transaction's tenant, row-level security is enabled and forced.

-- Remediation targets (days from detection to fix) per severity; no row means the defaults
-- documented in docs/compliance.md#remediation-targets.
CREATE TABLE compliance_settings (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  critical_days integer NOT NULL,
  high_days integer NOT NULL,
  medium_days integer NOT NULL,
  low_days integer NOT NULL,
  updated_by_token_id uuid,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id),
  CHECK (critical_days BETWEEN 1 AND 3650 AND high_days BETWEEN 1 AND 3650
    AND medium_days BETWEEN 1 AND 3650 AND low_days BETWEEN 1 AND 3650)
);

CREATE TABLE compliance_evidence_archives (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  -- 'queued' | 'generating' | 'ready' | 'failed'
  state text NOT NULL DEFAULT 'queued',
  requested_by_token_id uuid,
  archive bytea,
  archive_bytes integer,
  archive_sha256 text,
  manifest_sha256 text,
  signing_key_id text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  CHECK (state IN ('queued', 'generating', 'ready', 'failed')),
  CHECK (period_end > period_start)
);
CREATE INDEX compliance_evidence_archives_newest
  ON compliance_evidence_archives (tenant_id, created_at DESC, id DESC);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['compliance_settings', 'compliance_evidence_archives'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = dw_current_tenant())'
      ' WITH CHECK (tenant_id = dw_current_tenant())', t);
    EXECUTE format('CREATE POLICY service_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO driftwatch_app', t);
  END LOOP;
END $$;

-- The service's Ed25519 key for evidence archives: one per service, not per tenant (an auditor
-- checks an archive against the service's published key, which no tenant can replace). The
-- private key is sealed with the master key (secret box). Read and written only through the
-- system connection, so no grant to driftwatch_app.
CREATE TABLE compliance_signing_keys (
  key_id text PRIMARY KEY,
  algorithm text NOT NULL,
  public_key_pem text NOT NULL,
  private_key_sealed text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (algorithm = 'Ed25519')
);
-- At most one active key: two processes creating the first key at once keep the first.
CREATE UNIQUE INDEX compliance_signing_keys_one_active ON compliance_signing_keys (active)
  WHERE active;
