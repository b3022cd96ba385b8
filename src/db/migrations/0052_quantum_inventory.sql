-- The post-quantum inventory (docs/quantum.md): findings in source code and dependencies,
-- certificates and keys found in repositories or on watched TLS endpoints, the symmetric and
-- hash algorithms seen beside them (CBOM only), the endpoints a tenant watches and what each
-- probe observed.

-- A use of quantum-vulnerable public-key cryptography. `finding_key` identifies the same use
-- across scans (file, primitive, algorithm, api and the trimmed line, not the line number), so a
-- rescan keeps its triage; `present` is false once the latest scan no longer saw it.
CREATE TABLE quantum_findings (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  repository_id uuid NOT NULL,
  finding_key text NOT NULL,
  scan_id uuid NOT NULL,
  first_seen_scan_id uuid NOT NULL,
  file text,
  line integer,
  language text,
  primitive text NOT NULL CHECK (primitive IN
    ('key-generation', 'key-agreement', 'signature', 'encryption', 'key-material', 'library')),
  algorithm text NOT NULL,
  curve text,
  key_size integer,
  classification text NOT NULL CHECK (classification IN
    ('weak', 'deprecated-2030', 'disallowed-2035', 'hybrid', 'quantum-safe')),
  severity text NOT NULL,
  recommendation text NOT NULL,
  snippet text,
  api text,
  purl text,
  present boolean NOT NULL DEFAULT true,
  status text NOT NULL DEFAULT 'open',
  justification text,
  status_reason text,
  accepted_until timestamptz,
  status_changed_at timestamptz,
  status_changed_by_token_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, repository_id, finding_key),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX quantum_findings_by_repository
  ON quantum_findings (tenant_id, repository_id, present, severity, id);

-- A certificate seen in a repository file (latest scan) or on a watched endpoint (latest probe).
CREATE TABLE quantum_certificates (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  provenance text NOT NULL CHECK (provenance IN ('repository-file', 'tls-observation')),
  repository_id uuid,
  scan_id uuid,
  endpoint_id uuid,
  file text,
  line integer,
  subject text NOT NULL,
  issuer text NOT NULL,
  serial_number text NOT NULL,
  not_before timestamptz NOT NULL,
  not_after timestamptz NOT NULL,
  key_algorithm text NOT NULL,
  key_size integer,
  curve text,
  signature_algorithm text NOT NULL,
  fingerprint_sha256 text NOT NULL,
  classification text NOT NULL,
  self_signed boolean NOT NULL,
  is_ca boolean NOT NULL,
  container text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  CHECK ((provenance = 'repository-file') = (repository_id IS NOT NULL)),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX quantum_certificates_by_repository
  ON quantum_certificates (tenant_id, repository_id, classification);
CREATE INDEX quantum_certificates_by_endpoint ON quantum_certificates (tenant_id, endpoint_id);

-- Symmetric ciphers, hashes and MACs a scan saw in source code: CBOM algorithms, never findings.
CREATE TABLE quantum_algorithm_uses (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  repository_id uuid NOT NULL,
  scan_id uuid NOT NULL,
  algorithm text NOT NULL,
  kind text NOT NULL,
  file text NOT NULL,
  line integer NOT NULL,
  language text NOT NULL,
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX quantum_algorithm_uses_by_repository
  ON quantum_algorithm_uses (tenant_id, repository_id);

-- What a scan's inventory pass read (for the dashboard and the scan log).
CREATE TABLE quantum_scan_summaries (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  repository_id uuid NOT NULL,
  scan_id uuid NOT NULL,
  files_read integer NOT NULL,
  bytes_read bigint NOT NULL,
  files_skipped integer NOT NULL,
  scanned_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, repository_id),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);

-- A TLS endpoint the tenant watches, probed every `interval_hours`; optionally the repository
-- whose service answers there (its certificates then list the endpoint's chain).
CREATE TABLE quantum_tls_endpoints (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  repository_id uuid,
  host text NOT NULL,
  port integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
  server_name text,
  interval_hours integer NOT NULL CHECK (interval_hours BETWEEN 1 AND 720),
  next_probe_at timestamptz NOT NULL DEFAULT now(),
  last_probed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, host, port, server_name),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id)
    ON DELETE SET NULL (repository_id)
);
CREATE INDEX quantum_tls_endpoints_due ON quantum_tls_endpoints (next_probe_at);

-- One probe of an endpoint. `state` is the verdict, or `unreachable` / `refused` (the outbound
-- guard) when no TLS answer was read.
CREATE TABLE quantum_tls_observations (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  endpoint_id uuid NOT NULL,
  observed_at timestamptz NOT NULL DEFAULT now(),
  state text NOT NULL CHECK (state IN
    ('vulnerable', 'hybrid', 'pq-kex', 'quantum-safe', 'unreachable', 'refused')),
  hybrid_kex_classical_auth boolean NOT NULL DEFAULT false,
  protocol text,
  cipher_suite text,
  group_name text,
  group_codepoint integer,
  supported_group_name text,
  supported_group_codepoint integer,
  verdict_reason text,
  problem text,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, endpoint_id) REFERENCES quantum_tls_endpoints (tenant_id, id)
    ON DELETE CASCADE
);
CREATE INDEX quantum_tls_observations_latest
  ON quantum_tls_observations (tenant_id, endpoint_id, observed_at DESC);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['quantum_findings', 'quantum_certificates', 'quantum_algorithm_uses',
    'quantum_scan_summaries', 'quantum_tls_endpoints', 'quantum_tls_observations']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = dw_current_tenant())'
      ' WITH CHECK (tenant_id = dw_current_tenant())', t);
    EXECUTE format('CREATE POLICY service_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO driftwatch_app', t);
  END LOOP;
END $$;
