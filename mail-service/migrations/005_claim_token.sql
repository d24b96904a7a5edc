-- A fencing token: each claim of a message counts up, the sender checks that its count is still the
-- row's right before it sends, and a result is recorded only under it. So an instance that stalled
-- past its lease (the message claimed again by another meanwhile) sends and records nothing of it.
ALTER TABLE mail_messages ADD COLUMN claim integer NOT NULL DEFAULT 0;
