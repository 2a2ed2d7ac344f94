-- How many attempts of an action ended with an answer (a result or a classified failure).
-- An automatic retry that finds the previous attempt unsettled knows its outcome is unknown.
ALTER TABLE workflow_action_runs ADD COLUMN settled_attempts INTEGER NOT NULL DEFAULT 0;
