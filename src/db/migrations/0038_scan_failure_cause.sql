-- Whose a failed scan's failure is (docs/status.md#components): 'input' when the tenant's own
-- repository caused it (gone, refused address, refused credentials, missing branch, too large,
-- a remote that does not answer), 'service' otherwise. The public status page counts only the
-- service's failures; null (scans failed before this column) counts as the service's.
ALTER TABLE scans ADD COLUMN failure_cause text;
