-- A bulk operation retries, replays or cancels many runs of a project (docs/operations.md,
-- "Bulk recovery"). Its runs are fixed when it starts, one row each in bulk_operation_runs,
-- which a Temporal workflow of its own works through; an item is marked acting before it
-- acts, so a retried activity knows it may have acted already. The idempotency key makes
-- the same request sent twice start one operation.
CREATE TABLE bulk_operations (
    id               TEXT PRIMARY KEY,
    company_id       TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id       TEXT NOT NULL,
    operation        TEXT NOT NULL,
    version          TEXT NOT NULL DEFAULT '',
    idempotency_key  TEXT NOT NULL,
    request_hash     TEXT NOT NULL,
    status           TEXT NOT NULL,
    created_by       TEXT,
    created_at       DATETIME NOT NULL,
    updated_at       DATETIME NOT NULL,
    finished_at      DATETIME,
    UNIQUE (project_id, idempotency_key)
);
CREATE INDEX bulk_operations_project_idx ON bulk_operations (project_id, id);
CREATE TABLE bulk_operation_runs (
    bulk_operation_id  TEXT NOT NULL REFERENCES bulk_operations(id) ON DELETE CASCADE,
    run_id             TEXT NOT NULL,
    position           INTEGER NOT NULL,
    outcome            TEXT NOT NULL,
    reason             TEXT NOT NULL DEFAULT '',
    result_run_id      TEXT,
    PRIMARY KEY (bulk_operation_id, run_id)
);
CREATE INDEX bulk_operation_runs_position_idx ON bulk_operation_runs (bulk_operation_id, outcome, position);
