-- Payment actions (a payment due from a client in a project, awaiting confirmation), their
-- items (one per client service and due date: a unique index, so no service is billed twice
-- for one date, whoever bills it) and the payment facts recorded on them. Amounts are whole
-- hundredths of the currency unit. manual_payment_requests holds the idempotency keys of
-- manual payments: the key's row is the first write of a recording, so concurrent duplicates
-- wait for the first one and record nothing themselves.

CREATE TABLE payment_actions (
    id               TEXT PRIMARY KEY,
    company_id       TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    client_id        TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
    project_id       TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    status           TEXT NOT NULL,
    source           TEXT NOT NULL,
    payment_method   TEXT NOT NULL,
    period_start     TEXT NOT NULL,
    period_end       TEXT NOT NULL,
    due_date         TEXT NOT NULL,
    total_minor      BIGINT NOT NULL,
    currency         TEXT NOT NULL,
    comment          TEXT NOT NULL,
    snoozed_until    TEXT,
    confirmed_at     DATETIME,
    workflow_run_id  TEXT,
    created_at       DATETIME NOT NULL,
    updated_at       DATETIME NOT NULL
);
CREATE INDEX payment_actions_client_idx ON payment_actions (client_id, id);
CREATE INDEX payment_actions_project_idx ON payment_actions (project_id, id);
CREATE INDEX payment_actions_snoozed_idx ON payment_actions (snoozed_until) WHERE status = 'snoozed';

CREATE TABLE payment_action_items (
    id                 TEXT PRIMARY KEY,
    company_id         TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    payment_action_id  TEXT NOT NULL REFERENCES payment_actions(id) ON DELETE CASCADE,
    client_service_id  TEXT NOT NULL REFERENCES client_services(id) ON DELETE CASCADE,
    service_type_key   TEXT NOT NULL,
    title              TEXT NOT NULL,
    due_date           TEXT NOT NULL,
    amount_minor       BIGINT NOT NULL,
    currency           TEXT NOT NULL
);
CREATE INDEX payment_action_items_action_idx ON payment_action_items (payment_action_id, id);
CREATE UNIQUE INDEX payment_action_items_due_idx ON payment_action_items (client_service_id, due_date);

CREATE TABLE payment_facts (
    id                 TEXT PRIMARY KEY,
    company_id         TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    payment_action_id  TEXT NOT NULL REFERENCES payment_actions(id) ON DELETE CASCADE,
    event_id           TEXT NOT NULL,
    source             TEXT NOT NULL,
    payment_method     TEXT NOT NULL,
    amount_minor       BIGINT NOT NULL,
    currency           TEXT NOT NULL,
    paid_at            DATETIME NOT NULL,
    comment            TEXT NOT NULL,
    created_at         DATETIME NOT NULL
);
CREATE INDEX payment_facts_action_idx ON payment_facts (payment_action_id, id);

CREATE TABLE manual_payment_requests (
    company_id         TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    idempotency_key    TEXT NOT NULL,
    request_hash       TEXT NOT NULL,
    client_id          TEXT NOT NULL,
    client_service_id  TEXT NOT NULL,
    payment_fact_id    TEXT NOT NULL,
    created_at         DATETIME NOT NULL,
    PRIMARY KEY (company_id, idempotency_key)
);
