-- Workflows, their drafts and immutable versions, integrations and templates, and the
-- projection of runs (runs, action runs, run events) the engine writes as runs progress.

CREATE TABLE workflows (
    id                         UUID PRIMARY KEY,
    company_id                 UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id                 UUID NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name                       TEXT NOT NULL,
    description                TEXT NOT NULL,
    draft_actions              TEXT NOT NULL,
    draft_connections          TEXT NOT NULL,
    draft_test_input           TEXT NOT NULL,
    draft_change_description   TEXT NOT NULL,
    draft_updated_at           TIMESTAMPTZ NOT NULL,
    current_version_id         UUID,
    created_by                 UUID NOT NULL,
    created_at                 TIMESTAMPTZ NOT NULL,
    updated_at                 TIMESTAMPTZ NOT NULL
);
CREATE INDEX workflows_project_idx ON workflows (project_id, id);

CREATE TABLE workflow_versions (
    id              UUID PRIMARY KEY,
    company_id      UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    workflow_id     UUID NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
    version_number  INTEGER NOT NULL,
    description     TEXT NOT NULL,
    actions         TEXT NOT NULL,
    connections     TEXT NOT NULL,
    test_input      TEXT NOT NULL,
    created_by      UUID NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    UNIQUE (workflow_id, version_number)
);

CREATE TABLE workflow_runs (
    id                  UUID PRIMARY KEY,
    company_id          UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id          UUID NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    workflow_id         UUID NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
    workflow_version_id UUID REFERENCES workflow_versions(id),
    status              TEXT NOT NULL,
    trigger_type        TEXT NOT NULL,
    trigger_action_key  TEXT NOT NULL,
    is_test             BOOLEAN NOT NULL,
    input               TEXT NOT NULL,
    graph               TEXT NOT NULL,
    replay_of_run_id    UUID,
    terminal_reason     TEXT NOT NULL,
    error               TEXT NOT NULL,
    started_by          UUID,
    started_at          TIMESTAMPTZ,
    finished_at         TIMESTAMPTZ,
    created_at          TIMESTAMPTZ NOT NULL,
    updated_at          TIMESTAMPTZ NOT NULL
);
CREATE INDEX workflow_runs_workflow_idx ON workflow_runs (workflow_id, id);

CREATE TABLE workflow_action_runs (
    id                  UUID PRIMARY KEY,
    run_id              UUID NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
    action_key          TEXT NOT NULL,
    action_type_key     TEXT NOT NULL,
    status              TEXT NOT NULL,
    attempt_count       INTEGER NOT NULL,
    max_attempts        INTEGER NOT NULL,
    input               TEXT NOT NULL,
    output              TEXT NOT NULL,
    provider_response   TEXT NOT NULL,
    error               TEXT,
    retry_class         TEXT NOT NULL,
    diagnostics         TEXT NOT NULL,
    started_at          TIMESTAMPTZ,
    finished_at         TIMESTAMPTZ,
    updated_at          TIMESTAMPTZ NOT NULL,
    UNIQUE (run_id, action_key)
);

CREATE TABLE workflow_run_events (
    id          UUID PRIMARY KEY,
    run_id      UUID NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
    sequence    INTEGER NOT NULL,
    event_type  TEXT NOT NULL,
    action_key  TEXT NOT NULL,
    status      TEXT NOT NULL,
    message     TEXT NOT NULL,
    data        TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    UNIQUE (run_id, sequence)
);
