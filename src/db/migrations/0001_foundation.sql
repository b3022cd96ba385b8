-- Foundation: tenants, API tokens, audit log, and the row-level-security scaffolding.
--
-- Tenant data is read and written as the role driftwatch_app, which a transaction takes with
-- set_config('role', 'driftwatch_app', true) after set_config('app.tenant_id', ..., true).
-- Policies restrict that role to the current tenant; FORCE makes them apply to the table owner
-- too, and a separate policy lets the owner (the service's system connection) through.

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'driftwatch_app') THEN
    CREATE ROLE driftwatch_app NOLOGIN;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL; -- created concurrently by another database's migration on the same server
END $$;

DO $$
BEGIN
  EXECUTE format('GRANT driftwatch_app TO %I', current_user);
EXCEPTION WHEN OTHERS THEN
  NULL; -- superusers and existing members need no grant
END $$;

GRANT USAGE ON SCHEMA public TO driftwatch_app;

CREATE OR REPLACE FUNCTION dw_current_tenant() RETURNS uuid
  LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('app.tenant_id', true), '')::uuid $$;

CREATE TABLE tenants (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  plan text NOT NULL,
  is_demo boolean NOT NULL DEFAULT false,
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tenants_demo_expiry ON tenants (expires_at) WHERE is_demo;

CREATE TABLE api_tokens (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  name text NOT NULL,
  prefix text NOT NULL,
  secret_hash bytea NOT NULL,
  roles text[] NOT NULL,
  role_scope_json text NOT NULL,
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by_token_id uuid,
  last_used_at timestamptz,
  revoked_at timestamptz,
  replay_key text,
  replay_secret text,
  replay_until timestamptz,
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX api_tokens_secret_hash ON api_tokens (secret_hash);
CREATE INDEX api_tokens_replay ON api_tokens (tenant_id, replay_key) WHERE replay_key IS NOT NULL;

CREATE TABLE audit_log (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  actor_token_id uuid,
  action text NOT NULL,
  resource_type text NOT NULL,
  resource_id text,
  outcome text NOT NULL,
  status_code integer NOT NULL,
  ip text,
  correlation_id text NOT NULL,
  details jsonb,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX audit_log_recent ON audit_log (tenant_id, occurred_at DESC, id DESC);

ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
ALTER TABLE tenants FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON tenants
  USING (id = dw_current_tenant()) WITH CHECK (id = dw_current_tenant());
CREATE POLICY service_owner ON tenants TO CURRENT_USER USING (true) WITH CHECK (true);

ALTER TABLE api_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE api_tokens FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON api_tokens
  USING (tenant_id = dw_current_tenant()) WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON api_tokens TO CURRENT_USER USING (true) WITH CHECK (true);

ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_log FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON audit_log
  USING (tenant_id = dw_current_tenant()) WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON audit_log TO CURRENT_USER USING (true) WITH CHECK (true);

GRANT SELECT, UPDATE ON tenants TO driftwatch_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON api_tokens, audit_log TO driftwatch_app;
