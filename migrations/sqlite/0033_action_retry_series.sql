-- A retry-action starts a new series of attempts of the action (docs/workflows.md): the
-- view counts attempts from retried_attempts, the attempts before the latest retry, and
-- retry_count says how many retries there were. attempt_count keeps counting every attempt,
-- which the worker's at-most-once check reads.
ALTER TABLE workflow_action_runs ADD COLUMN retry_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workflow_action_runs ADD COLUMN retried_attempts INTEGER NOT NULL DEFAULT 0;
