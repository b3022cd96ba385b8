-- The dashboard's per-tenant summary (docs/workspace.md#the-rollups): one row per tenant with
-- the sums of its analytics_repository_state rows, rewritten by the rollups (every repository
-- refresh and the daily pass), so GET /api/v1/dashboards/global reads one row instead of
-- summing the state of every repository.
CREATE TABLE analytics_tenant_summary (
  tenant_id uuid PRIMARY KEY DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  -- {totals, byEcosystem, byStatus, topByLibyear, topByCritical}: see src/domains/analytics/summary.ts
  data jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE analytics_tenant_summary ENABLE ROW LEVEL SECURITY;
ALTER TABLE analytics_tenant_summary FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON analytics_tenant_summary USING (tenant_id = dw_current_tenant())
  WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON analytics_tenant_summary TO CURRENT_USER USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON analytics_tenant_summary TO driftwatch_app;
