-- Template namespaces a trigger gave a run beyond its payload (a schedule's planned time, a
-- relay's chat and bot session), kept so replays and retries see the same variables.
ALTER TABLE workflow_runs ADD COLUMN namespaces TEXT NOT NULL DEFAULT '{}';
