-- approval.wait waits for a person's decision (docs/workflows.md, "Approvals"). One row per
-- approval: its id is derived from the run and the action (so a run knows its decide link
-- before the wait begins), the decision is a conditional update of a pending row (the loser
-- of a race is a conflict), and timed_out is recorded the same way when the wait's timer
-- fires. No link token is stored: it is an HMAC of the id under the server's key. A decision
-- is signalled to its run after it is recorded; delivered_at says the run has it, and the
-- dispatcher signals those still without.
CREATE TABLE workflow_approvals (
    id                  TEXT PRIMARY KEY,
    company_id          TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id          TEXT NOT NULL,
    workflow_id         TEXT NOT NULL,
    run_id              TEXT NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
    action_key          TEXT NOT NULL,
    title               TEXT NOT NULL,
    message             TEXT NOT NULL DEFAULT '',
    approver_role       TEXT NOT NULL,
    form_schema         TEXT,
    status              TEXT NOT NULL,
    decided_by_user_id  TEXT,
    decided_by          TEXT NOT NULL DEFAULT '',
    comment             TEXT NOT NULL DEFAULT '',
    data                TEXT,
    expires_at          DATETIME NOT NULL,
    decided_at          DATETIME,
    link_used_at        DATETIME,
    delivered_at        DATETIME,
    created_at          DATETIME NOT NULL,
    UNIQUE (run_id, action_key)
);
CREATE INDEX workflow_approvals_pending_idx ON workflow_approvals (company_id, status, expires_at);
CREATE INDEX workflow_approvals_undelivered_idx ON workflow_approvals (decided_at) WHERE delivered_at IS NULL AND decided_at IS NOT NULL;
