-- Deeper intelligence (docs/vulnerabilities-matching.md): why an exposure is only possibly
-- affected, and malicious packages as their own kind of finding.

-- Set when the version matched but the code built is not that package's: a Go module swapped
-- out by `replace` ('replaced by <module or directory>'). Null for declared ranges and unpinned
-- dependencies, whose reason the resolution already says.
ALTER TABLE vulnerability_exposures ADD COLUMN IF NOT EXISTS possibly_affected_reason text;

-- 'vulnerability' | 'malicious': a group with an OSV MAL- record (OpenSSF malicious-packages)
-- names a package published to do harm, reported apart from flaws and always critical.
ALTER TABLE vulnerabilities ADD COLUMN IF NOT EXISTS kind text NOT NULL DEFAULT 'vulnerability';
CREATE INDEX IF NOT EXISTS vulnerabilities_malicious ON vulnerabilities (id) WHERE kind = 'malicious';
