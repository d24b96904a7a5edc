-- A canary is judged site-wide (canary-counts.ts): every replica adds its page views and failed
-- views per group version and second here every few seconds, and whichever replica holds the lease
-- judges from the sums.
CREATE TABLE canary_counts (
  group_name text NOT NULL,
  version text NOT NULL,
  second bigint NOT NULL,
  views bigint NOT NULL DEFAULT 0 CHECK (views >= 0),
  errors bigint NOT NULL DEFAULT 0 CHECK (errors >= 0),
  PRIMARY KEY (group_name, version, second)
);

-- Each view token counts once, whichever replica its reports reach: its nonce is kept until the
-- token expires.
CREATE TABLE canary_reports (
  nonce text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);

-- The one replica that judges: it holds the lease until `until` and renews it while it lives.
CREATE TABLE canary_judge (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  holder text NOT NULL,
  until timestamptz NOT NULL
);

-- The last decision about each group's canary, for `npm run deploy -- --status` and the metrics.
CREATE TABLE canary_decisions (
  group_name text PRIMARY KEY,
  version text NOT NULL,
  at timestamptz NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('healthy', 'failing', 'inconclusive')),
  reason text NOT NULL
);
