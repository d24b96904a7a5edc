-- The site server's control plane: every manifest that was ever live, the one that is live now,
-- and the history of changes. Applied once per database by control-plane/migrate.ts.

-- A manifest exactly as published: its version is the hash of these bytes, so the body is text.
CREATE TABLE manifest_versions (
  version text PRIMARY KEY,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The live pointer: one row, there from the start so a change can always lock it (FOR UPDATE),
-- even the first one. NULL: nothing was ever published. seq counts the changes, so a replica can
-- tell an older read from a newer one.
CREATE TABLE live_manifest (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version text REFERENCES manifest_versions (version),
  seq bigint NOT NULL DEFAULT 0,
  changed_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO live_manifest (id) VALUES (true);

-- One row per change, in the order the changes went live.
CREATE TABLE manifest_history (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  by_name text NOT NULL,
  action text NOT NULL CHECK (action IN ('deploy', 'rollback', 'seed')),
  remote text NOT NULL,
  from_version jsonb,
  to_version jsonb NOT NULL,
  reason text NOT NULL,
  manifest_version text NOT NULL REFERENCES manifest_versions (version)
);
CREATE INDEX manifest_history_remote ON manifest_history (remote, id);
