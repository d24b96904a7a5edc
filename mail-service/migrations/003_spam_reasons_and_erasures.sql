-- Why a message was judged spam (a JSON array of reasons; NULL for one that was not), and when
-- an operator released it to the queue. Until now only the honeypot made a message spam.
ALTER TABLE mail_messages ADD COLUMN spam_reasons text, ADD COLUMN released_at bigint;
UPDATE mail_messages SET spam_reasons = '["honeypot field filled"]' WHERE status = 'spam';

-- The server secret when FORM_TOKEN_SECRET is unset: made by the first instance, shared by all.
CREATE TABLE mail_secrets (name text PRIMARY KEY, value text NOT NULL);

-- One row per erasure request served: an HMAC of the address (never the address), the count.
CREATE TABLE mail_erasures (
  id           bigserial PRIMARY KEY,
  at           bigint NOT NULL,
  address_hmac text NOT NULL,
  messages     integer NOT NULL,
  files        integer NOT NULL
);
