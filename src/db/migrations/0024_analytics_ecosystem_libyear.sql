-- Libyear per ecosystem in the analytics state rows (docs/workspace.md#the-rollups): the
-- repository's drift total stays on its repository row (libyear), and each ecosystem row carries
-- the summed libyear of that ecosystem's dependencies at the repository's latest drift snapshot
-- (ecosystem_libyear), so trends filtered by ecosystem have a libyear instead of null. Kept in its
-- own column so that summing libyear over all rows still counts each year once.
ALTER TABLE analytics_repository_state
  ADD COLUMN ecosystem_libyear double precision NOT NULL DEFAULT 0;
