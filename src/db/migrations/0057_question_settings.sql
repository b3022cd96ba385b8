-- Questions in plain language (docs/questions.md#audit): whether the audit entry of a question
-- keeps its text. A tenant without a row keeps it (the default); the intent is always recorded.
CREATE TABLE tenant_question_settings (
  tenant_id uuid PRIMARY KEY DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  record_question_text boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE tenant_question_settings ENABLE ROW LEVEL SECURITY;
ALTER TABLE tenant_question_settings FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON tenant_question_settings
  USING (tenant_id = dw_current_tenant()) WITH CHECK (tenant_id = dw_current_tenant());
CREATE POLICY service_owner ON tenant_question_settings TO CURRENT_USER
  USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON tenant_question_settings TO driftwatch_app;
