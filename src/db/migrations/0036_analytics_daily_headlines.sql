-- The dashboard's 7- and 30-day changes (docs/workspace.md#get-apiv1dashboardsglobal) compare
-- today's numbers with the tenant's daily row of that day, which kept only dependencies,
-- exposures, libyear and open violations. The daily rows now also keep the repositories, the
-- open alerts and the drift counts (packages behind by major, minor and patch releases,
-- deprecated, end of life) as of the day's last refresh. NULL where not kept: on days rolled up
-- before this migration (no change to report against them), the open alerts on any row but the
-- tenant's all-ecosystems sums (alerts belong to the tenant), the drift counts on one ecosystem's
-- rows (kept per repository, not per ecosystem).
ALTER TABLE analytics_daily
  ADD COLUMN repositories integer,
  ADD COLUMN alerts_open integer,
  ADD COLUMN major_behind integer,
  ADD COLUMN minor_behind integer,
  ADD COLUMN patch_behind integer,
  ADD COLUMN deprecated integer,
  ADD COLUMN end_of_life integer;
