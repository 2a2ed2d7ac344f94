-- Payment actions (a payment due from a client in a project, awaiting confirmation), their
-- items (one per client service and due date: a unique index, so no service is billed twice
-- for one date, whoever bills it) and the payment facts recorded on them. Amounts are whole
-- hundredths of the currency unit. manual_payment_requests holds the idempotency keys of
-- manual payments: the key's row is the first write of a recording, so concurrent duplicates
-- wait for the first one and record nothing themselves.

CREATE TABLE payment_actions (
    id               UUID PRIMARY KEY,
    company_id       UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    client_id        UUID NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
    project_id       UUID NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    status           TEXT NOT NULL,
    source           TEXT NOT NULL,
    payment_method   TEXT NOT NULL,
    period_start     DATE NOT NULL,
    period_end       DATE NOT NULL,
    due_date         DATE NOT NULL,
    total_minor      BIGINT NOT NULL,
    currency         TEXT NOT NULL,
    comment          TEXT NOT NULL,
    snoozed_until    DATE,
    confirmed_at     TIMESTAMPTZ,
    workflow_run_id  UUID,
    created_at       TIMESTAMPTZ NOT NULL,
    updated_at       TIMESTAMPTZ NOT NULL
);
CREATE INDEX payment_actions_client_idx ON payment_actions (client_id, id);
CREATE INDEX payment_actions_project_idx ON payment_actions (project_id, id);
CREATE INDEX payment_actions_snoozed_idx ON payment_actions (snoozed_until) WHERE status = 'snoozed';

CREATE TABLE payment_action_items (
    id                 UUID PRIMARY KEY,
    company_id         UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    payment_action_id  UUID NOT NULL REFERENCES payment_actions(id) ON DELETE CASCADE,
    client_service_id  UUID NOT NULL REFERENCES client_services(id) ON DELETE CASCADE,
    service_type_key   TEXT NOT NULL,
    title              TEXT NOT NULL,
    due_date           DATE NOT NULL,
    amount_minor       BIGINT NOT NULL,
    currency           TEXT NOT NULL
);
CREATE INDEX payment_action_items_action_idx ON payment_action_items (payment_action_id, id);
CREATE UNIQUE INDEX payment_action_items_due_idx ON payment_action_items (client_service_id, due_date);

CREATE TABLE payment_facts (
    id                 UUID PRIMARY KEY,
    company_id         UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    payment_action_id  UUID NOT NULL REFERENCES payment_actions(id) ON DELETE CASCADE,
    event_id           UUID NOT NULL,
    source             TEXT NOT NULL,
    payment_method     TEXT NOT NULL,
    amount_minor       BIGINT NOT NULL,
    currency           TEXT NOT NULL,
    paid_at            TIMESTAMPTZ NOT NULL,
    comment            TEXT NOT NULL,
    created_at         TIMESTAMPTZ NOT NULL
);
CREATE INDEX payment_facts_action_idx ON payment_facts (payment_action_id, id);

CREATE TABLE manual_payment_requests (
    company_id         UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    idempotency_key    TEXT NOT NULL,
    request_hash       TEXT NOT NULL,
    client_id          UUID NOT NULL,
    client_service_id  UUID NOT NULL,
    payment_fact_id    UUID NOT NULL,
    created_at         TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (company_id, idempotency_key)
);
