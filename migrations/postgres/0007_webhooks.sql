-- Inbound webhooks: endpoints bound to a workflow's webhook.trigger (by endpoint_key) under
-- their project's hook_key, the requests they received (kept as they arrived, so a
-- delivery can be inspected and replayed), and the runs each request started.

CREATE TABLE webhook_endpoints (
    id                          UUID PRIMARY KEY,
    company_id                  UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id                  UUID NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    workflow_id                 UUID NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
    endpoint_key                TEXT NOT NULL,
    description                 TEXT NOT NULL,
    auth_type                   TEXT NOT NULL,
    status                      TEXT NOT NULL,
    content_type                TEXT NOT NULL,
    max_body_bytes              INTEGER NOT NULL,
    basic_username              TEXT NOT NULL,
    secret_sealed               TEXT NOT NULL,
    previous_secret_sealed      TEXT NOT NULL,
    previous_secret_expires_at  TIMESTAMPTZ,
    rejected_count              INTEGER NOT NULL,
    last_rejected_at            TIMESTAMPTZ,
    last_rejection              TEXT NOT NULL,
    created_by                  UUID NOT NULL,
    created_at                  TIMESTAMPTZ NOT NULL,
    updated_at                  TIMESTAMPTZ NOT NULL,
    -- The public address is /hooks/{hook_key}/{endpoint_key}: one endpoint per key in a project.
    UNIQUE (project_id, endpoint_key)
);
CREATE INDEX webhook_endpoints_workflow_idx ON webhook_endpoints (workflow_id, id);

CREATE TABLE webhook_events (
    id                  UUID PRIMARY KEY,
    company_id          UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id          UUID NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    workflow_id         UUID NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
    endpoint_id         UUID NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    -- webhook-id or Idempotency-Key; NULL when the sender gave none (NULLs never collide).
    delivery_id         TEXT,
    body_sha256         TEXT NOT NULL,
    status              TEXT NOT NULL,
    content_type        TEXT NOT NULL,
    body                BYTEA NOT NULL,
    payload             TEXT NOT NULL,
    extracted_fields    TEXT NOT NULL,
    headers             TEXT NOT NULL,
    source_ip           TEXT NOT NULL,
    received_at         TIMESTAMPTZ NOT NULL,
    -- attempts counts the claims to start the delivery's run; a claim is taken by bumping it.
    attempts            INTEGER NOT NULL,
    claimed_at          TIMESTAMPTZ NOT NULL,
    workflow_run_id     UUID REFERENCES workflow_runs(id) ON DELETE SET NULL,
    response_status     INTEGER NOT NULL,
    response_body       TEXT NOT NULL,
    error               TEXT NOT NULL
);
-- A repeated delivery id of an endpoint is a duplicate: this index lets exactly one start.
CREATE UNIQUE INDEX webhook_events_delivery_idx ON webhook_events (endpoint_id, delivery_id);
CREATE INDEX webhook_events_endpoint_idx ON webhook_events (endpoint_id, id);

CREATE TABLE webhook_event_runs (
    workflow_run_id     UUID PRIMARY KEY REFERENCES workflow_runs(id) ON DELETE CASCADE,
    webhook_event_id    UUID NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
    endpoint_id         UUID NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    company_id          UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    replay              BOOLEAN NOT NULL,
    started_by          UUID,
    created_at          TIMESTAMPTZ NOT NULL
);
CREATE INDEX webhook_event_runs_event_idx ON webhook_event_runs (webhook_event_id, workflow_run_id);
