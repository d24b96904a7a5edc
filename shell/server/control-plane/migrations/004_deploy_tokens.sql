-- Each page group deploys with a token of its own (control-plane/tokens.ts): only its SHA-256
-- digest is kept, never the token. A revoked token stays listed, since the history names it.
CREATE TABLE deploy_tokens (
  id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{12}$'),
  groups text[] NOT NULL CHECK (cardinality(groups) > 0),
  digest text NOT NULL CHECK (digest ~ '^[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  rotated_at timestamptz,
  revoked_at timestamptz
);

-- Which credential made a change: 'operator', 'group:data#<token id>', or 'site' for the site's
-- own changes. NULL for changes recorded before credentials were told apart.
ALTER TABLE manifest_history ADD COLUMN credential text;
