-- The advisory store keeps what is read (docs/vulnerabilities.md, "The advisory store"):
--
-- * The raw OSV record and its SHA-256 are dropped. Nothing read them: the API answers from the
--   parsed columns (the contract has no raw record), matching reads osv_affected, re-matching
--   and the refresh of a vulnerability read the parsed columns, and an unchanged record is
--   recognised by its `modified` (the newest wins), not by the hash. They were half of each
--   row's bytes and the largest share of the import's CPU (JSON text, hash, jsonb parse,
--   compression: docs/benchmarks.md, "OSV import"). A re-import or the next sync stores the
--   parsed columns again from the source whenever they are needed.
ALTER TABLE osv_advisories DROP COLUMN raw, DROP COLUMN content_hash;

-- * The foreign keys inside the store are dropped: every row of these tables is written by one
--   function, storeAdvisoryBatch (src/intel/advisory-store/store.ts), which inserts a group's
--   vulnerability before the advisories that point at it and an advisory before its aliases and
--   affected entries, in one transaction per batch serialised by a transaction-level advisory
--   lock. Nothing deletes an advisory or a vulnerability (a withdrawn record is kept, a merged
--   vulnerability keeps its row with merged_into), so the ON DELETE CASCADE never ran; the
--   only deletes are the importer's own, of the alias and affected rows of an advisory it
--   replaces. Checking the keys cost an index probe and a trigger event per alias and affected
--   row (about 40 µs per record on the embedded database). vulnerability_exposures keeps its
--   key to vulnerabilities (tenant data, written elsewhere).
ALTER TABLE osv_advisory_aliases DROP CONSTRAINT IF EXISTS osv_advisory_aliases_advisory_id_fkey;
ALTER TABLE osv_affected DROP CONSTRAINT IF EXISTS osv_affected_advisory_id_fkey;
ALTER TABLE osv_advisories DROP CONSTRAINT IF EXISTS osv_advisories_vulnerability_id_fkey;
