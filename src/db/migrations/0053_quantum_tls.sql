-- TLS observations (docs/quantum.md#tls-observations): what each observation keeps of its own,
-- the endpoint's identity with or without a server name, and the certificate-expiry notices.

-- The address a probe connected to (the one the outbound guard checked), and the chain it read,
-- as facts (subject, issuer, validity, key, signature, fingerprint, classification): the
-- endpoint's rows in quantum_certificates hold only the latest chain.
ALTER TABLE quantum_tls_observations
  ADD COLUMN address text,
  ADD COLUMN certificates jsonb NOT NULL DEFAULT '[]';

-- The list of all observations, newest first, with or without a state filter.
CREATE INDEX quantum_tls_observations_newest
  ON quantum_tls_observations (tenant_id, observed_at DESC, id DESC);
CREATE INDEX quantum_tls_observations_by_state
  ON quantum_tls_observations (tenant_id, state, observed_at DESC, id DESC);

-- UNIQUE (tenant_id, host, port, server_name) lets an IP endpoint without a server name in twice
-- (NULLs are distinct): one endpoint per host, port and server name, absent or not.
CREATE UNIQUE INDEX quantum_tls_endpoints_identity
  ON quantum_tls_endpoints (tenant_id, host, port, coalesce(server_name, ''));

-- A certificate of an endpoint's chain that entered its last 30 days: the expiry alert's event
-- is emitted once per endpoint and certificate, when the row is inserted.
CREATE TABLE quantum_tls_certificate_notices (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL,
  fingerprint_sha256 text NOT NULL,
  not_after timestamptz NOT NULL,
  notified_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, endpoint_id, fingerprint_sha256),
  FOREIGN KEY (tenant_id, endpoint_id) REFERENCES quantum_tls_endpoints (tenant_id, id)
    ON DELETE CASCADE
);

ALTER TABLE quantum_tls_certificate_notices ENABLE ROW LEVEL SECURITY;
ALTER TABLE quantum_tls_certificate_notices FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON quantum_tls_certificate_notices
  USING (tenant_id = dw_current_tenant()) WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON quantum_tls_certificate_notices TO CURRENT_USER
  USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON quantum_tls_certificate_notices TO driftwatch_app;
