-- Reachability gains 'used_by_tooling' (docs/reachability.md "Tooling"): a package that no code
-- imports but that a package.json script runs or a tool configuration names (jest presets, babel
-- and eslint plugins...). It was 'not_imported' before, which hid findings.

ALTER TABLE repository_reachability DROP CONSTRAINT repository_reachability_reachability_check;
ALTER TABLE repository_reachability ADD CONSTRAINT repository_reachability_reachability_check
  CHECK (reachability IN ('imported', 'used_by_tooling', 'not_imported', 'unknown'));

ALTER TABLE vulnerability_exposures DROP CONSTRAINT vulnerability_exposures_reachability_check;
ALTER TABLE vulnerability_exposures ADD CONSTRAINT vulnerability_exposures_reachability_check
  CHECK (reachability IN ('imported', 'used_by_tooling', 'not_imported', 'unknown'));
