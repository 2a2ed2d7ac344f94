-- A bulk operation retries, replays or cancels many runs of a project (docs/operations.md,
-- "Bulk recovery"). Its runs are fixed when it starts, one row each in bulk_operation_runs,
-- which a Temporal workflow of its own works through; an item is marked acting before it
-- acts, so a retried activity knows it may have acted already. The idempotency key makes
-- the same request sent twice start one operation.
CREATE TABLE bulk_operations (
    id               UUID PRIMARY KEY,
    company_id       UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id       UUID NOT NULL,
    operation        TEXT NOT NULL,
    version          TEXT NOT NULL DEFAULT '',
    idempotency_key  TEXT NOT NULL,
    request_hash     TEXT NOT NULL,
    status           TEXT NOT NULL,
    created_by       UUID,
    created_at       TIMESTAMPTZ NOT NULL,
    updated_at       TIMESTAMPTZ NOT NULL,
    finished_at      TIMESTAMPTZ,
    UNIQUE (project_id, idempotency_key)
);
CREATE INDEX bulk_operations_project_idx ON bulk_operations (project_id, id);
CREATE TABLE bulk_operation_runs (
    bulk_operation_id  UUID NOT NULL REFERENCES bulk_operations(id) ON DELETE CASCADE,
    run_id             UUID NOT NULL,
    position           INTEGER NOT NULL,
    outcome            TEXT NOT NULL,
    reason             TEXT NOT NULL DEFAULT '',
    result_run_id      UUID,
    PRIMARY KEY (bulk_operation_id, run_id)
);
CREATE INDEX bulk_operation_runs_position_idx ON bulk_operation_runs (bulk_operation_id, outcome, position);
