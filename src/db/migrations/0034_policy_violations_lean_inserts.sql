-- A repository's first policy evaluation inserts a violation per matching dependency and policy
-- (5,589 in bench:policies), and every row pays one check per foreign key (docs/benchmarks.md,
-- "Policies"). The key to tenants is redundant, so it goes: a violation's (tenant_id, policy_id)
-- references policies (tenant_id, id), whose tenant_id references tenants, so its tenant exists;
-- and deleting a tenant still removes its violations, through the cascade from policies (and
-- from repositories). The tenant purge deletes table by table before the tenant and does not
-- depend on it (the tenants table has no tenant_id).
ALTER TABLE policy_violations DROP CONSTRAINT IF EXISTS policy_violations_tenant_id_fkey;
