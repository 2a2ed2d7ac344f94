-- run.event_trigger starts runs when another run of the project fails or is cancelled
-- (docs/triggers.md). The end of such a run queues a row here in the transaction that
-- records the end, so a crash between the end and the watcher's start loses nothing; the
-- dispatcher starts the watchers with run ids derived from the row's id and marks it
-- dispatched. Runs whose own trigger is run.event_trigger, and test runs, queue none.
CREATE TABLE workflow_run_end_events (
    id                TEXT PRIMARY KEY,
    company_id        TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id        TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    workflow_id       TEXT NOT NULL,
    run_id            TEXT NOT NULL,
    event_type        TEXT NOT NULL,
    failed_action_key TEXT NOT NULL,
    error             TEXT NOT NULL,
    occurred_at       DATETIME NOT NULL,
    dispatched_at     DATETIME
);
CREATE INDEX workflow_run_end_events_undispatched_idx ON workflow_run_end_events (occurred_at) WHERE dispatched_at IS NULL;
