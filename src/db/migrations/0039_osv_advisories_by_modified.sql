-- The status page's vulnerability data is as fresh as its newest advisory when no feed sync
-- has run (an `admin import-osv` of files, docs/status.md#components): one index read, not a
-- scan of every advisory each evaluation.
CREATE INDEX osv_advisories_by_modified ON osv_advisories (modified_at);
