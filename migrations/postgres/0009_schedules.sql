-- Schedules keep no table of their own: a schedule.trigger of a workflow's current version
-- is a Temporal Schedule (id schedule-<workflow_id>-<action_key>), brought in line with the
-- version on every publish and restore, and each firing is an ordinary workflow_runs row
-- with trigger_type 'schedule'. Before starting one, the engine reads the trigger's latest
-- scheduled run (to skip an overlap, and to not start a planned time twice); this index
-- keeps that read short however many runs the workflow has.
CREATE INDEX workflow_runs_trigger_key_idx ON workflow_runs (workflow_id, trigger_action_key, id);
