-- Package intelligence (docs/package-intelligence.md): registry metadata of the shared catalogue,
-- its versions, daily health-signal snapshots and the fetch schedule (no tenant: every tenant
-- reads them); per-tenant watches, drift history per scan, scoring weights and benchmark profile.

-- One row per package whose registry was asked at least once. `raw` is the normalised
-- PackageMetadata (src/ecosystems/registry-types.ts) as the client returned it: handed back as
-- `previous` so the next fetch is a conditional request (ETag / Last-Modified).
CREATE TABLE package_metadata (
  package_id uuid PRIMARY KEY REFERENCES packages (id) ON DELETE CASCADE,
  -- 'found' | 'not_found' (the registry answered 404/410)
  status text NOT NULL,
  latest_stable text,
  latest text,
  deprecated text,
  successor text,
  licence text,
  repository_url text,
  homepage text,
  description text,
  maintainers text[] NOT NULL DEFAULT '{}',
  maintainer_changes jsonb NOT NULL DEFAULT '[]'::jsonb,
  downloads bigint,
  downloads_period text,
  version_count integer NOT NULL DEFAULT 0,
  first_release_at timestamptz,
  last_release_at timestamptz,
  latest_stable_released_at timestamptz,
  releases_last_year integer NOT NULL DEFAULT 0,
  -- Median days between the last releases (null with fewer than two dated releases).
  cadence_days double precision,
  -- Install-time scripts of the newest stable version; null when the ecosystem does not tell.
  install_scripts text[],
  etag text,
  last_modified text,
  notes jsonb NOT NULL DEFAULT '[]'::jsonb,
  raw jsonb,
  fetched_at timestamptz NOT NULL,
  changed_at timestamptz NOT NULL
);
CREATE INDEX package_metadata_fetched ON package_metadata (fetched_at);

-- Every version the registry lists, in the ecosystem's order (`ordinal` ascending).
CREATE TABLE package_versions (
  package_id uuid NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
  version text NOT NULL,
  ordinal integer NOT NULL,
  published_at timestamptz,
  deprecated text,
  yanked boolean NOT NULL DEFAULT false,
  yanked_reason text,
  prerelease boolean NOT NULL DEFAULT false,
  licence text,
  maintainers text[],
  published_by text,
  install_scripts text[],
  downloads bigint,
  PRIMARY KEY (package_id, version)
);

-- The fetch schedule: a row is due when due_at has passed. Retry-After defers due_at.
CREATE TABLE package_enrichment (
  package_id uuid PRIMARY KEY REFERENCES packages (id) ON DELETE CASCADE,
  ecosystem text NOT NULL,
  due_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  last_attempt_at timestamptz,
  -- 'fetched' | 'not_modified' | 'not_found' | 'deferred' | 'failed' | 'disabled'
  last_outcome text,
  last_error text
);
CREATE INDEX package_enrichment_due ON package_enrichment (due_at);

-- A registry that answered 429 (or 5xx) with Retry-After: nothing is sent to it before `until`.
CREATE TABLE registry_backoff (
  ecosystem text PRIMARY KEY,
  until timestamptz NOT NULL,
  reason text NOT NULL
);

-- Health signals of a package, one snapshot per UTC day (the last fetch of the day wins).
-- Scores are computed from these with each tenant's own weights when read.
CREATE TABLE package_health_snapshots (
  package_id uuid NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
  snapshot_date date NOT NULL,
  computed_at timestamptz NOT NULL,
  signals jsonb NOT NULL,
  -- Score with the default weights: benchmarks compare tenants on the same scale.
  default_score integer,
  PRIMARY KEY (package_id, snapshot_date)
);

CREATE TABLE package_watches (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  package_id uuid NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  note text,
  created_by_token_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, package_id)
);
CREATE INDEX package_watches_recent ON package_watches (tenant_id, created_at DESC, id DESC);

-- Drift of one repository at one scan (history: one row per scan, kept when later scans arrive).
CREATE TABLE repository_drift (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  repository_id uuid NOT NULL,
  scan_id uuid NOT NULL,
  -- When the scan finished (falls back to when drift was first computed): the plot's x axis.
  scanned_at timestamptz NOT NULL,
  computed_at timestamptz NOT NULL,
  dependency_count integer NOT NULL,
  -- Dependencies whose registry metadata and used version were known.
  measured_count integer NOT NULL,
  -- Dependencies still waiting for registry metadata (recomputed when it arrives).
  pending_count integer NOT NULL,
  outdated_count integer NOT NULL,
  libyear_total double precision NOT NULL,
  major_behind integer NOT NULL,
  minor_behind integer NOT NULL,
  patch_behind integer NOT NULL,
  deprecated_count integer NOT NULL,
  yanked_count integer NOT NULL,
  end_of_life_count integer NOT NULL,
  PRIMARY KEY (tenant_id, repository_id, scan_id),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX repository_drift_history ON repository_drift (tenant_id, repository_id, scanned_at DESC);

-- Drift of each dependency at one scan.
CREATE TABLE dependency_drift (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  repository_id uuid NOT NULL,
  scan_id uuid NOT NULL,
  package_id uuid NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
  -- '' when the dependency is unpinned.
  used_version text NOT NULL,
  resolution text NOT NULL,
  -- 'measured' | 'pending' | 'unknown_version' | 'not_in_registry'
  state text NOT NULL,
  compared_version text,
  latest_stable text,
  libyear double precision,
  major_behind integer,
  minor_behind integer,
  patch_behind integer,
  deprecated boolean NOT NULL DEFAULT false,
  yanked boolean NOT NULL DEFAULT false,
  end_of_life boolean NOT NULL DEFAULT false,
  PRIMARY KEY (tenant_id, repository_id, scan_id, package_id, used_version),
  FOREIGN KEY (tenant_id, repository_id, scan_id) REFERENCES repository_drift (tenant_id, repository_id, scan_id) ON DELETE CASCADE
);
CREATE INDEX dependency_drift_by_package ON dependency_drift (tenant_id, package_id);

CREATE TABLE tenant_scoring_weights (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  weights jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tenant_benchmark_profiles (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  industry text,
  size_band text,
  opt_in boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tenant_benchmark_peer_group
  ON tenant_benchmark_profiles (industry, size_band) WHERE opt_in;

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['package_watches', 'repository_drift', 'dependency_drift',
    'tenant_scoring_weights', 'tenant_benchmark_profiles']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = dw_current_tenant())'
      ' WITH CHECK (tenant_id = dw_current_tenant())', t);
    EXECUTE format('CREATE POLICY service_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO driftwatch_app', t);
  END LOOP;
END $$;

-- The catalogue is written by system jobs only; tenant transactions read it.
GRANT SELECT ON package_metadata, package_versions, package_enrichment, registry_backoff,
  package_health_snapshots TO driftwatch_app;

-- Peer benchmarks (docs/package-intelligence.md#benchmarks): the calling tenant's peer group is
-- read from its own profile; the function runs as the owner to see every member of the group and
-- returns aggregates only: one row for the peers (count, mean, quartiles) and one for the caller.
-- Per tenant: libyear per measured dependency and outdated share over each repository's latest
-- drift snapshot, and the mean default-weights health score of the packages it uses.
CREATE FUNCTION dw_benchmark_figures()
RETURNS TABLE (
  is_self boolean, tenants integer,
  libyear_mean float8, libyear_p25 float8, libyear_median float8, libyear_p75 float8,
  outdated_mean float8, outdated_p25 float8, outdated_median float8, outdated_p75 float8,
  health_mean float8, health_p25 float8, health_median float8, health_p75 float8
)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
AS $$
  WITH me AS (
    SELECT industry, size_band FROM tenant_benchmark_profiles WHERE tenant_id = dw_current_tenant()
  ),
  members AS (
    SELECT p.tenant_id, p.tenant_id = dw_current_tenant() AS is_self
      FROM tenant_benchmark_profiles p, me
     WHERE p.tenant_id = dw_current_tenant()
        OR (p.opt_in AND p.industry = me.industry AND p.size_band = me.size_band)
  ),
  latest AS (
    SELECT DISTINCT ON (rd.tenant_id, rd.repository_id)
           rd.tenant_id, rd.libyear_total, rd.measured_count, rd.outdated_count
      FROM repository_drift rd JOIN members m ON m.tenant_id = rd.tenant_id
     ORDER BY rd.tenant_id, rd.repository_id, rd.scanned_at DESC, rd.scan_id DESC
  ),
  drift AS (
    SELECT tenant_id,
           sum(libyear_total) / nullif(sum(measured_count), 0) AS libyear,
           sum(outdated_count)::float8 / nullif(sum(measured_count), 0) AS outdated
      FROM latest GROUP BY tenant_id
  ),
  used AS (
    SELECT DISTINCT d.tenant_id, d.package_id
      FROM repository_dependencies d JOIN members m ON m.tenant_id = d.tenant_id
  ),
  health AS (
    SELECT u.tenant_id, avg(h.default_score)::float8 AS health
      FROM used u
      JOIN LATERAL (
        SELECT s.default_score FROM package_health_snapshots s
         WHERE s.package_id = u.package_id AND s.default_score IS NOT NULL
         ORDER BY s.snapshot_date DESC LIMIT 1
      ) h ON true
     GROUP BY u.tenant_id
  ),
  per_tenant AS (
    SELECT m.is_self, d.libyear, d.outdated, h.health
      FROM members m
      LEFT JOIN drift d ON d.tenant_id = m.tenant_id
      LEFT JOIN health h ON h.tenant_id = m.tenant_id
  )
  SELECT is_self, count(*)::int,
         avg(libyear), percentile_cont(0.25) WITHIN GROUP (ORDER BY libyear),
         percentile_cont(0.5) WITHIN GROUP (ORDER BY libyear), percentile_cont(0.75) WITHIN GROUP (ORDER BY libyear),
         avg(outdated), percentile_cont(0.25) WITHIN GROUP (ORDER BY outdated),
         percentile_cont(0.5) WITHIN GROUP (ORDER BY outdated), percentile_cont(0.75) WITHIN GROUP (ORDER BY outdated),
         avg(health), percentile_cont(0.25) WITHIN GROUP (ORDER BY health),
         percentile_cont(0.5) WITHIN GROUP (ORDER BY health), percentile_cont(0.75) WITHIN GROUP (ORDER BY health)
    FROM per_tenant GROUP BY is_self
$$;
REVOKE ALL ON FUNCTION dw_benchmark_figures() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION dw_benchmark_figures() TO driftwatch_app;

-- GET /api/v1/packages walks the catalogue in (ecosystem, name) order checking visibility per
-- row: these two indexes make that an index-only walk with index-only probes.
CREATE INDEX package_metadata_found ON package_metadata (package_id) WHERE status = 'found';
CREATE INDEX packages_catalogue_order ON packages (ecosystem, name, id);
