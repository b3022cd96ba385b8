-- Unresolved exposures by severity in the daily rollup (critical was there already), so that a
-- trend draws each severity over time (docs/workspace.md#dashboards-and-trends). Null on days
-- rolled up before this migration: their split was not recorded and is not invented.
ALTER TABLE analytics_daily
  ADD COLUMN exposures_high integer,
  ADD COLUMN exposures_medium integer,
  ADD COLUMN exposures_low integer;
