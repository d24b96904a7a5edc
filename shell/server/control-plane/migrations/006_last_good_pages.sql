-- The last good composition of each group page (last-good.ts): the markup a group version last
-- gave for a path, gzip-compressed, and when it was last known good. A site server that starts
-- while the group's host is down reads it instead of showing the notice.
CREATE TABLE last_good_pages (
  group_name text NOT NULL,
  version text NOT NULL,
  path text NOT NULL,
  good_at timestamptz NOT NULL,
  page bytea NOT NULL,
  PRIMARY KEY (group_name, version, path)
);

-- The pages known good longest ago are dropped first when there are too many.
CREATE INDEX last_good_pages_good_at ON last_good_pages (good_at);
