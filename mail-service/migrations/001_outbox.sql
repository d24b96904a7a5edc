-- The outbox shared by every instance: one row per accepted message. Times are milliseconds
-- since the epoch, as the service's clock gives them (the same values as the SQLite outbox).
CREATE TABLE mail_messages (
  id              text PRIMARY KEY,
  -- Unique across the fleet: a retried request through another instance finds the first one.
  idempotency_key text UNIQUE,
  body_hash       text,
  client_hash     text,
  lane            integer NOT NULL DEFAULT 1,
  status          text NOT NULL CHECK (status IN ('queued', 'delivered', 'failed', 'spam')),
  payload         text,
  email_domain    text,
  created_at      bigint NOT NULL,
  -- The start of the current retry period: the acceptance, or the latest requeue.
  queued_at       bigint NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at bigint NOT NULL,
  last_error      text,
  done_rcpts      text,
  delivered_at    bigint,
  acknowledged_at bigint,
  redacted_at     bigint,
  updated_at      bigint NOT NULL,
  -- The instance sending the message right now, and until when its claim holds.
  claimed_by      text,
  lease_until     bigint
);
CREATE INDEX mail_messages_fair ON mail_messages (status, lane, created_at);
CREATE INDEX mail_messages_client ON mail_messages (client_hash, status);

-- The write probe behind readiness's outbox_not_writable.
CREATE TABLE mail_probe (id integer PRIMARY KEY, at bigint NOT NULL);
