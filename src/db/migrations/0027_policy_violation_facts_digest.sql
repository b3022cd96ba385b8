-- A digest of the facts stored on each policy violation (docs/policies.md#evaluation): an
-- evaluation compares it with the digest of the facts it just built and leaves a held violation
-- whose facts, status, severity, action and policy version are unchanged alone, instead of
-- sending every held violation's facts to the database to be compared there (a rescan of 5,000
-- dependencies that changed nothing spent half a second on that). Null until the next evaluation
-- writes the row.
ALTER TABLE policy_violations ADD COLUMN facts_digest text;
