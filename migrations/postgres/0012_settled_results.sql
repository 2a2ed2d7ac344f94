-- The answer of an action's last settled attempt when it succeeded, as JSON ('' after a
-- failure): an attempt whose worker died after recording it, before Temporal heard of it,
-- is answered again from here on the automatic retry instead of acting twice.
ALTER TABLE workflow_action_runs ADD COLUMN settled_result TEXT NOT NULL DEFAULT '';
