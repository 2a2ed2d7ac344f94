-- When a run was handed to Temporal. A webhook delivery is answered once its run is stored
-- (dispatched_at empty, the start intent); engine.Dispatcher then hands the run to Temporal,
-- retrying while Temporal is down, and sets it. Runs before this migration were handed over
-- (or refused) when they were stored.
ALTER TABLE workflow_runs ADD COLUMN dispatched_at DATETIME;
UPDATE workflow_runs SET dispatched_at = created_at;
CREATE INDEX workflow_runs_undispatched_idx ON workflow_runs (created_at) WHERE dispatched_at IS NULL;
