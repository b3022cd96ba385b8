-- Tenant columns default to the tenant of the scoped transaction (app.tenant_id), so stores
-- inserting inside a tenant scope need not pass tenant_id by hand. Row-level security stays the
-- guard: WITH CHECK (tenant_id = dw_current_tenant()) still refuses any other value, and an
-- insert outside a scope gets NULL, which NOT NULL refuses. Tables created later declare the
-- same default themselves (the migration test checks every tenant table).
DO $$
DECLARE
  target record;
BEGIN
  FOR target IN
    SELECT c.relname
    FROM pg_class c
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relrowsecurity
  LOOP
    EXECUTE format(
      'ALTER TABLE %I ALTER COLUMN tenant_id SET DEFAULT dw_current_tenant()', target.relname
    );
  END LOOP;
END $$;
