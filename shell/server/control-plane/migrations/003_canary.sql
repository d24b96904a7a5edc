-- A version live for a share of visitors is recorded in the history as a 'canary' change.
ALTER TABLE manifest_history DROP CONSTRAINT manifest_history_action_check;
ALTER TABLE manifest_history
  ADD CONSTRAINT manifest_history_action_check
  CHECK (action IN ('deploy', 'rollback', 'seed', 'canary'));
