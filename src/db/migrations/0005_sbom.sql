-- SBOM import and export (docs/sbom.md). Both are tenant-owned and follow 0002's pattern.

-- One row per accepted import: the document read into a neutral graph (src/sbom/types.ts
-- SbomGraph) waits here for its job, which stores the dependencies through the import's scan
-- (trigger 'sbom') and then drops the graph; the row stays as the record of what came in.
CREATE TABLE sbom_imports (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  repository_id uuid NOT NULL,
  scan_id uuid NOT NULL,
  -- 'cyclonedx' | 'spdx'
  format text NOT NULL,
  spec_version text NOT NULL,
  tool text,
  component_count integer NOT NULL,
  -- SHA-256 of the request body as received.
  document_sha256 text NOT NULL,
  document_bytes integer NOT NULL,
  graph jsonb,
  -- Warnings of the read (duplicate refs, unknown edges), written to the scan log by the job.
  warnings jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  processed_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, scan_id) REFERENCES scans (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX sbom_imports_by_scan ON sbom_imports (tenant_id, scan_id);

-- One row per requested export; the job writes the document once and it never changes.
CREATE TABLE sbom_exports (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  repository_id uuid NOT NULL,
  -- 'cyclonedx-1.6' | 'spdx-2.3'
  format text NOT NULL,
  -- 'queued' | 'running' | 'completed' | 'failed'
  state text NOT NULL DEFAULT 'queued',
  -- The scan whose dependencies the document lists (null when the repository had none stored).
  scan_id uuid,
  component_count integer,
  document text,
  document_bytes integer,
  document_sha256 text,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX sbom_exports_by_repository ON sbom_exports (tenant_id, repository_id, created_at DESC);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['sbom_imports', 'sbom_exports']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = dw_current_tenant())'
      ' WITH CHECK (tenant_id = dw_current_tenant())', t);
    EXECUTE format('CREATE POLICY service_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO driftwatch_app', t);
  END LOOP;
END $$;
