-- The advisory store's large values (each OSV record's raw JSON and the markdown details, a few KB
-- each, half a million records for the whole OSV database) are compressed with lz4 instead of the
-- default pglz where the server supports it: compressing them was a third of the server's CPU time
-- while importing (docs/benchmarks.md, "OSV import"). Values already stored keep their compression;
-- the embedded database (PGlite, built without lz4) keeps pglz.
DO $$
BEGIN
  ALTER TABLE osv_advisories
    ALTER COLUMN raw SET COMPRESSION lz4,
    ALTER COLUMN details SET COMPRESSION lz4;
  ALTER TABLE vulnerabilities ALTER COLUMN details SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 compression not supported here: the advisory store keeps pglz';
END $$;
