-- Several groups released together: each change of one release carries its id, so the release can
-- be listed and rolled back as one. NULL for a change of one group on its own.
ALTER TABLE manifest_history ADD COLUMN release_id text;
CREATE INDEX manifest_history_release ON manifest_history (release_id) WHERE release_id IS NOT NULL;
