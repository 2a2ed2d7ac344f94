-- loop.for_each runs its body once per item (docs/workflows.md). The action runs of an
-- item's body are rows of workflow_action_runs like any other, keyed by the item
-- (action_key lines[3].create_task, item_key lines[3]; '' outside any loop), so the
-- worker's at-most-once records work per item. workflow_loop_items holds each item's
-- outcome, for the inspector to list and filter.
ALTER TABLE workflow_action_runs ADD COLUMN item_key TEXT NOT NULL DEFAULT '';
CREATE INDEX workflow_action_runs_item_idx ON workflow_action_runs (run_id, item_key);

CREATE TABLE workflow_loop_items (
    id                 TEXT PRIMARY KEY,
    run_id             TEXT NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
    loop_key           TEXT NOT NULL,
    item_index         INTEGER NOT NULL,
    status             TEXT NOT NULL,
    item               TEXT NOT NULL,
    error              TEXT NOT NULL DEFAULT '',
    failed_action_key  TEXT NOT NULL DEFAULT '',
    started_at         DATETIME,
    finished_at        DATETIME,
    updated_at         DATETIME NOT NULL,
    UNIQUE (run_id, loop_key, item_index)
);
CREATE INDEX workflow_loop_items_status_idx ON workflow_loop_items (run_id, loop_key, status, item_index);
