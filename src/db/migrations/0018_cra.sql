-- EU Cyber Resilience Act (docs/cra.md): the tenant's products with digital elements, the
-- repositories they are built from, the service-wide known-exploited list (CISA KEV format) the
-- operator imports, the record that a product's vulnerability was found actively exploited
-- (one per product and vulnerability: the `cra.actively_exploited` event is emitted once), and
-- the assessments a person records for Annex I requirements and Article 13 duties.

CREATE TABLE cra_products (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  name text NOT NULL,
  -- The version line the product is sold as ("2.x", "2026 LTS").
  version_line text NOT NULL,
  manufacturer text NOT NULL,
  -- Art. 13(8) support period; null until the manufacturer has set it.
  support_period_end date,
  -- 'default' | 'important_class_i' | 'important_class_ii' | 'critical' (Art. 7, 8; Annex III, IV)
  classification text NOT NULL DEFAULT 'default',
  -- The Annex III or IV category (a key of src/domains/cra/classification.ts); null for default.
  category text,
  security_contact text,
  cvd_policy_url text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  CONSTRAINT cra_products_classification CHECK (
    classification IN ('default', 'important_class_i', 'important_class_ii', 'critical')),
  CONSTRAINT cra_products_category CHECK ((classification = 'default') = (category IS NULL))
);
CREATE INDEX cra_products_listing ON cra_products (tenant_id, created_at DESC, id DESC);

CREATE TABLE cra_product_repositories (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  product_id uuid NOT NULL,
  repository_id uuid NOT NULL,
  linked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, product_id, repository_id),
  FOREIGN KEY (tenant_id, product_id) REFERENCES cra_products (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX cra_product_repositories_by_repository
  ON cra_product_repositories (tenant_id, repository_id);

-- An actively exploited vulnerability found in a product: written once per (product,
-- vulnerability) together with the `cra.actively_exploited` event. reported_at is set by the
-- Article 14 reporting when a report was submitted for it (the finding's state `reported`).
CREATE TABLE cra_exploitations (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  product_id uuid NOT NULL,
  vulnerability_id uuid NOT NULL REFERENCES vulnerabilities (id),
  -- The exposure that showed it (the first seen one when several did).
  exposure_id uuid NOT NULL,
  cve_id text NOT NULL,
  detected_at timestamptz NOT NULL DEFAULT now(),
  reported_at timestamptz,
  PRIMARY KEY (tenant_id, product_id, vulnerability_id),
  FOREIGN KEY (tenant_id, product_id) REFERENCES cra_products (tenant_id, id) ON DELETE CASCADE
);

-- What a person recorded for one Annex I requirement ('annex_i', 'I(2)(b)') or Article 13 duty
-- ('duty', 'risk_assessment'). Every change is in the audit log as well.
CREATE TABLE cra_assessments (
  tenant_id uuid NOT NULL DEFAULT dw_current_tenant() REFERENCES tenants (id) ON DELETE CASCADE,
  product_id uuid NOT NULL,
  -- 'annex_i' | 'duty'
  area text NOT NULL,
  item text NOT NULL,
  -- 'met' | 'partly_met' | 'not_met' | 'not_assessed'
  status text NOT NULL,
  note text NOT NULL,
  evidence_url text,
  assessed_by_token_id uuid,
  assessed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, product_id, area, item),
  FOREIGN KEY (tenant_id, product_id) REFERENCES cra_products (tenant_id, id) ON DELETE CASCADE,
  CONSTRAINT cra_assessments_area CHECK (area IN ('annex_i', 'duty')),
  CONSTRAINT cra_assessments_status CHECK (
    status IN ('met', 'partly_met', 'not_met', 'not_assessed'))
);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['cra_products', 'cra_product_repositories', 'cra_exploitations',
    'cra_assessments']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = dw_current_tenant())'
      ' WITH CHECK (tenant_id = dw_current_tenant())', t);
    EXECUTE format('CREATE POLICY service_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO driftwatch_app', t);
  END LOOP;
END $$;

-- The known-exploited list (CISA KEV catalogue format), shared by every tenant like the advisory
-- store: written only by the operator's import, read by tenants.
CREATE TABLE known_exploited_vulnerabilities (
  cve_id text PRIMARY KEY,
  vendor_project text NOT NULL,
  product text NOT NULL,
  vulnerability_name text,
  date_added date NOT NULL,
  short_description text,
  required_action text,
  due_date date,
  -- 'Known' | 'Unknown' in the catalogue
  known_ransomware_campaign_use text,
  notes text,
  cwes text[] NOT NULL DEFAULT '{}',
  -- The catalogue version that last wrote the row.
  catalog_version text NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One row per import: which catalogue the list is as of.
CREATE TABLE known_exploited_imports (
  id uuid PRIMARY KEY,
  catalog_version text NOT NULL,
  date_released timestamptz NOT NULL,
  entries integer NOT NULL,
  added integer NOT NULL,
  updated integer NOT NULL,
  source text,
  imported_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX known_exploited_imports_recent ON known_exploited_imports (imported_at DESC);

GRANT SELECT ON known_exploited_vulnerabilities, known_exploited_imports TO driftwatch_app;
