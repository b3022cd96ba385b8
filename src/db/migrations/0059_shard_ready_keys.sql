-- Ready to shard by tenant (docs/scaling.md#schema-readiness,
-- docs/decisions/0010-shard-ready-keys.md): every primary and unique key of a tenant table leads
-- with tenant_id, and every foreign key between tenant tables includes it, so a distributed
-- PostgreSQL (Citus) can place each tenant's rows on one node. test/structure/shard-readiness
-- checks the catalogue.

-- The keys that must stay unique across tenants move to one routing directory, a global
-- (reference) table: a provider's billing customer, an scm-a installation, an API token's hash.
-- Each names the one tenant a request from outside (a webhook, a bearer token) belongs to before
-- any tenant scope exists. Triggers keep it in step with the tenant tables, so every existing
-- write path, and its unique violation (23505) on a second claim, stays as it was.
CREATE TABLE tenant_routes (
  -- 'api-token' | 'billing-customer' | 'scm-a-installation'
  kind text NOT NULL,
  key text NOT NULL,
  -- Not named tenant_id: a reference table, not tenant data (no row-level security).
  owner_tenant uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  PRIMARY KEY (kind, key)
);
CREATE INDEX tenant_routes_by_owner ON tenant_routes (owner_tenant);

CREATE OR REPLACE FUNCTION public.dw_sync_tenant_route() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, public
  AS $$
  DECLARE
    route_kind text := TG_ARGV[0];
    old_key text;
    new_key text;
  BEGIN
    -- plpgsql compiles a trigger function once per table and plans each statement when it first
    -- runs, so each branch may read columns only its own table has.
    IF route_kind = 'api-token' THEN
      IF TG_OP <> 'INSERT' THEN old_key := encode(OLD.secret_hash, 'hex'); END IF;
      IF TG_OP <> 'DELETE' THEN new_key := encode(NEW.secret_hash, 'hex'); END IF;
    ELSIF route_kind = 'billing-customer' THEN
      IF TG_OP <> 'INSERT' THEN old_key := OLD.customer_id; END IF;
      IF TG_OP <> 'DELETE' THEN new_key := NEW.customer_id; END IF;
    ELSIF route_kind = 'scm-a-installation' THEN
      IF TG_OP <> 'INSERT' AND OLD.provider = 'scm-a' THEN old_key := OLD.external_id; END IF;
      IF TG_OP <> 'DELETE' AND NEW.provider = 'scm-a' THEN new_key := NEW.external_id; END IF;
    END IF;
    IF TG_OP = 'UPDATE' AND old_key IS NOT DISTINCT FROM new_key THEN
      RETURN NULL;
    END IF;
    IF old_key IS NOT NULL THEN
      DELETE FROM tenant_routes
        WHERE kind = route_kind AND key = old_key AND owner_tenant = OLD.tenant_id;
    END IF;
    IF new_key IS NOT NULL THEN
      INSERT INTO tenant_routes (kind, key, owner_tenant) VALUES (route_kind, new_key, NEW.tenant_id);
    END IF;
    RETURN NULL;
  END
  $$;
REVOKE ALL ON FUNCTION public.dw_sync_tenant_route() FROM PUBLIC;

INSERT INTO tenant_routes (kind, key, owner_tenant)
  SELECT 'api-token', encode(secret_hash, 'hex'), tenant_id FROM api_tokens;
INSERT INTO tenant_routes (kind, key, owner_tenant)
  SELECT 'billing-customer', customer_id, tenant_id FROM billing_accounts;
INSERT INTO tenant_routes (kind, key, owner_tenant)
  SELECT 'scm-a-installation', external_id, tenant_id FROM source_control_connections
  WHERE provider = 'scm-a' AND external_id IS NOT NULL;

CREATE TRIGGER tenant_route AFTER INSERT OR UPDATE OF secret_hash OR DELETE ON api_tokens
  FOR EACH ROW EXECUTE FUNCTION dw_sync_tenant_route('api-token');
CREATE TRIGGER tenant_route AFTER INSERT OR UPDATE OF customer_id OR DELETE ON billing_accounts
  FOR EACH ROW EXECUTE FUNCTION dw_sync_tenant_route('billing-customer');
CREATE TRIGGER tenant_route
  AFTER INSERT OR UPDATE OF provider, external_id OR DELETE ON source_control_connections
  FOR EACH ROW EXECUTE FUNCTION dw_sync_tenant_route('scm-a-installation');

DROP INDEX api_tokens_secret_hash;
CREATE UNIQUE INDEX api_tokens_tenant_secret_hash ON api_tokens (tenant_id, secret_hash);
ALTER TABLE billing_accounts DROP CONSTRAINT billing_accounts_customer_id_key;
DROP INDEX source_control_connections_one_installation;
CREATE INDEX source_control_connections_by_external_id
  ON source_control_connections (tenant_id, provider, external_id);

-- A token is found through its route: one directory row, then the token on its tenant's shard.
CREATE OR REPLACE FUNCTION public.dw_lookup_token(secret_hash bytea)
  RETURNS TABLE (id uuid, tenant_id uuid, roles text[], plan text, usable boolean)
  LANGUAGE plpgsql STABLE SECURITY DEFINER
  AS $$
  BEGIN
    RETURN QUERY
    SELECT t.id, t.tenant_id, t.roles, n.plan,
      t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > pg_catalog.now())
        AND (n.expires_at IS NULL OR n.expires_at > pg_catalog.now())
    FROM public.tenant_routes r
    JOIN public.api_tokens t ON t.tenant_id = r.owner_tenant
      AND t.secret_hash = dw_lookup_token.secret_hash
    JOIN public.tenants n ON n.id = t.tenant_id
    WHERE r.kind = 'api-token' AND r.key = pg_catalog.encode(dw_lookup_token.secret_hash, 'hex');
  END
  $$;

-- A provider event id is unique within its tenant: the customer routes every event (and every
-- replay of it) to the same tenant.
ALTER TABLE billing_events DROP CONSTRAINT billing_events_event_id_key;
ALTER TABLE billing_events ADD CONSTRAINT billing_events_tenant_event UNIQUE (tenant_id, event_id);

-- System-owned deliveries (decision 0007) keep their own owner: the nil UUID, which no tenant
-- has (ids are UUIDv7), instead of a null a distribution column cannot hold. Row-level security
-- hides them from every tenant as before. The foreign key to tenants goes (the nil UUID is no
-- tenant row); purges walk every tenant table, and a direct tenant delete (demo expiry) removes
-- the tenant's deliveries by the trigger below.
ALTER TABLE outbound_delivery_attempts DROP CONSTRAINT outbound_delivery_attempts_delivery_fkey;
ALTER TABLE outbound_delivery_attempts DROP CONSTRAINT outbound_delivery_attempts_pkey;
ALTER TABLE outbound_deliveries DROP CONSTRAINT outbound_deliveries_pkey;
ALTER TABLE outbound_deliveries DROP CONSTRAINT outbound_deliveries_owner;
ALTER TABLE outbound_deliveries DROP CONSTRAINT outbound_deliveries_tenant_id_fkey;
ALTER TABLE outbound_delivery_attempts DROP CONSTRAINT outbound_delivery_attempts_tenant_id_fkey;
UPDATE outbound_deliveries SET tenant_id = '00000000-0000-0000-0000-000000000000'
  WHERE tenant_id IS NULL;
UPDATE outbound_delivery_attempts a SET tenant_id = d.tenant_id
  FROM outbound_deliveries d WHERE a.tenant_id IS NULL AND d.id = a.delivery_id;
ALTER TABLE outbound_deliveries ALTER COLUMN tenant_id SET NOT NULL;
ALTER TABLE outbound_delivery_attempts ALTER COLUMN tenant_id SET NOT NULL;
ALTER TABLE outbound_deliveries ADD PRIMARY KEY (tenant_id, id);
ALTER TABLE outbound_delivery_attempts ADD PRIMARY KEY (tenant_id, delivery_id, attempt);
ALTER TABLE outbound_delivery_attempts ADD CONSTRAINT outbound_delivery_attempts_delivery_fkey
  FOREIGN KEY (tenant_id, delivery_id) REFERENCES outbound_deliveries (tenant_id, id)
  ON DELETE CASCADE;
ALTER TABLE outbound_deliveries ADD CONSTRAINT outbound_deliveries_owner
  CHECK (tenant_id <> '00000000-0000-0000-0000-000000000000' OR target_kind = 'status-webhook');
-- The system connection claims a system-owned delivery by its id alone.
CREATE INDEX outbound_deliveries_by_id ON outbound_deliveries (id);

CREATE OR REPLACE FUNCTION public.dw_delete_tenant_deliveries() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, public
  AS $$
  BEGIN
    DELETE FROM outbound_deliveries WHERE tenant_id = OLD.id;
    RETURN OLD;
  END
  $$;
REVOKE ALL ON FUNCTION public.dw_delete_tenant_deliveries() FROM PUBLIC;
CREATE TRIGGER tenant_deliveries BEFORE DELETE ON tenants
  FOR EACH ROW EXECUTE FUNCTION dw_delete_tenant_deliveries();
