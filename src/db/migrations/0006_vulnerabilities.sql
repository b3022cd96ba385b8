-- Vulnerability intelligence: the shared advisory store (OSV records, their aliases, the
-- alias-joined vulnerabilities and the affected entries indexed by package) and the tenant-owned
-- exposures of repositories to those vulnerabilities.

-- One row per flaw: the advisories whose ids and aliases connect (CVE, GHSA, PYSEC, ...) share
-- it, so a flaw is never counted twice. The columns other than id are derived from the member
-- advisories on every import (src/intel/advisory-store/groups.ts).
CREATE TABLE vulnerabilities (
  id uuid PRIMARY KEY,
  -- The preferred identifier of the group: a CVE when there is one, then GHSA, then the rest.
  canonical_id text NOT NULL,
  -- Every other identifier of the group (advisory ids and their aliases).
  aliases text[] NOT NULL DEFAULT '{}',
  summary text,
  details text,
  -- 'low' | 'medium' | 'high' | 'critical' | null (no usable severity)
  severity_rating text,
  severity_score numeric(3, 1),
  severity_vector text,
  severity_type text,
  published_at timestamptz,
  modified_at timestamptz NOT NULL,
  -- Set when every member advisory is withdrawn: the vulnerability no longer matches.
  withdrawn_at timestamptz,
  -- Spec spellings (npm, PyPI, Cargo, ...) of the ecosystems its live advisories name.
  ecosystems text[] NOT NULL DEFAULT '{}',
  -- Lower-cased identifiers, summary and package names for the free-text filter.
  search_text text NOT NULL DEFAULT '',
  -- Set when an alias join folded this group into another one; old links follow it.
  merged_into uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX vulnerabilities_listing ON vulnerabilities (published_at DESC NULLS LAST, id)
  WHERE merged_into IS NULL;
CREATE INDEX vulnerabilities_canonical ON vulnerabilities (canonical_id);

-- One row per OSV record, the newest `modified` wins.
CREATE TABLE osv_advisories (
  id text PRIMARY KEY,
  vulnerability_id uuid NOT NULL REFERENCES vulnerabilities (id),
  modified_at timestamptz NOT NULL,
  published_at timestamptz,
  withdrawn_at timestamptz,
  summary text,
  details text,
  severity_rating text,
  severity_score numeric(3, 1),
  severity_vector text,
  severity_type text,
  refs jsonb NOT NULL DEFAULT '[]'::jsonb,
  raw jsonb NOT NULL,
  -- SHA-256 of the raw record: the same record imported again changes nothing.
  content_hash text NOT NULL,
  -- Where the record came from last (file path or feed URL).
  source text,
  imported_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX osv_advisories_by_vulnerability ON osv_advisories (vulnerability_id);

CREATE TABLE osv_advisory_aliases (
  advisory_id text NOT NULL REFERENCES osv_advisories (id) ON DELETE CASCADE,
  alias text NOT NULL,
  PRIMARY KEY (advisory_id, alias)
);
CREATE INDEX osv_advisory_aliases_by_alias ON osv_advisory_aliases (alias);

-- affected[] of each advisory, looked up by (ecosystem, normalised name): matching costs per
-- dependency, not per advisory.
CREATE TABLE osv_affected (
  advisory_id text NOT NULL REFERENCES osv_advisories (id) ON DELETE CASCADE,
  ordinal integer NOT NULL,
  -- Spec spelling when the ecosystem is supported (npm, PyPI, Cargo, ...), else the OSV name.
  ecosystem text NOT NULL,
  osv_ecosystem text NOT NULL,
  -- Normalised the ecosystem's way (the same form as packages.name).
  name text NOT NULL,
  osv_name text NOT NULL,
  -- [{"type":"ECOSYSTEM","events":[{"introduced":"0"},{"fixed":"1.2.3"}]}]
  ranges jsonb NOT NULL DEFAULT '[]'::jsonb,
  versions text[] NOT NULL DEFAULT '{}',
  fixed_versions text[] NOT NULL DEFAULT '{}',
  withdrawn boolean NOT NULL DEFAULT false,
  PRIMARY KEY (advisory_id, ordinal)
);
CREATE INDEX osv_affected_by_package ON osv_affected (ecosystem, name);

-- Conditional GET state of the feed sync, per export URL.
CREATE TABLE osv_feed_state (
  url text PRIMARY KEY,
  etag text,
  last_modified text,
  last_checked_at timestamptz,
  last_changed_at timestamptz,
  last_status text,
  last_error text,
  records integer NOT NULL DEFAULT 0
);

-- Tenant state: one exposure per (repository, package version, vulnerability).
CREATE TABLE vulnerability_exposures (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  repository_id uuid NOT NULL,
  package_id uuid NOT NULL REFERENCES packages (id),
  ecosystem text NOT NULL,
  package_name text NOT NULL,
  -- The exact version; the declared range when the dependency is not pinned; '' when unpinned.
  version text NOT NULL,
  -- 'resolved' | 'declared' | 'unpinned'
  resolution text NOT NULL,
  -- false for an exact version inside an affected range; true for a declared range or an
  -- unpinned dependency that may resolve to an affected version ("possibly affected").
  possibly_affected boolean NOT NULL DEFAULT false,
  vulnerability_id uuid NOT NULL REFERENCES vulnerabilities (id),
  advisory_ids text[] NOT NULL DEFAULT '{}',
  -- The affected entries that matched: [{advisoryId, ranges, versions}]
  affected_ranges jsonb NOT NULL DEFAULT '[]'::jsonb,
  fixed_versions text[] NOT NULL DEFAULT '{}',
  files text[] NOT NULL DEFAULT '{}',
  -- open | investigating | affected | not_affected | false_positive | accepted_risk | fixed
  status text NOT NULL DEFAULT 'open',
  -- CycloneDX VEX justification (not_affected).
  justification text,
  status_reason text,
  accepted_until timestamptz,
  status_changed_at timestamptz,
  status_changed_by_token_id uuid,
  -- Why the system closed it: 'dependency_removed' | 'advisory_withdrawn' | 'no_longer_affected'
  fixed_reason text,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  fixed_at timestamptz,
  reintroduced_count integer NOT NULL DEFAULT 0,
  last_scan_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, repository_id) REFERENCES repositories (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX vulnerability_exposures_identity
  ON vulnerability_exposures (tenant_id, repository_id, package_id, version, vulnerability_id);
CREATE INDEX vulnerability_exposures_listing
  ON vulnerability_exposures (tenant_id, last_seen_at DESC, id DESC);
CREATE INDEX vulnerability_exposures_by_package
  ON vulnerability_exposures (tenant_id, package_id);
CREATE INDEX vulnerability_exposures_by_vulnerability
  ON vulnerability_exposures (tenant_id, vulnerability_id);
CREATE INDEX vulnerability_exposures_acceptance
  ON vulnerability_exposures (accepted_until) WHERE status = 'accepted_risk';

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['vulnerability_exposures']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = dw_current_tenant())'
      ' WITH CHECK (tenant_id = dw_current_tenant())', t);
    EXECUTE format('CREATE POLICY service_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO driftwatch_app', t);
  END LOOP;
END $$;

-- The advisory store is written only by system work (imports and the sync job); tenants read it.
GRANT SELECT ON vulnerabilities, osv_advisories, osv_advisory_aliases, osv_affected
  TO driftwatch_app;
