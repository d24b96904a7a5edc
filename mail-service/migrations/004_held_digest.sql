-- Held messages (status 'spam') are listed in a daily digest to sales: a message remembers when it
-- was, and retention deletes none before; the one row of mail_digest says when the last digest
-- went out and which instance is sending one now (so the fleet sends one, not one each).
ALTER TABLE mail_messages ADD COLUMN digested_at bigint;
CREATE TABLE mail_digest (
  id            integer PRIMARY KEY CHECK (id = 1),
  last_sent_at  bigint,
  claimed_until bigint
);
INSERT INTO mail_digest (id) VALUES (1);
