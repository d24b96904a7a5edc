-- A control plane moved in from an earlier single server's files (move-in.ts) keeps its whole
-- history, but the files kept only the live manifest's bytes: every earlier version the history
-- names is a row without a body. Only the live version is ever read, and it always has one.
ALTER TABLE manifest_versions ALTER COLUMN body DROP NOT NULL;
