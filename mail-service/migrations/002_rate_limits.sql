-- express-rate-limit's counters, shared by every instance: one fixed window per client key
-- (a SHA-256 of it; client addresses are not stored).
CREATE TABLE mail_rate_limits (
  key      text PRIMARY KEY,
  hits     integer NOT NULL,
  reset_at bigint NOT NULL
);
CREATE INDEX mail_rate_limits_reset ON mail_rate_limits (reset_at);
