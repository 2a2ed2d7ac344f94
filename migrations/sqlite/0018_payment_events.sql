-- Payment events that start workflows (payment.event_trigger): an action created, an action
-- due, a payment recorded. Each is written in the transaction of the change it tells of,
-- once (event_key), and the engine's dispatcher starts the runs it triggers and sets
-- dispatched_at; the rows it has not dispatched are its queue.
CREATE TABLE payment_events (
    id                 TEXT PRIMARY KEY,
    company_id         TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id         TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    payment_action_id  TEXT NOT NULL REFERENCES payment_actions(id) ON DELETE CASCADE,
    payment_fact_id    TEXT REFERENCES payment_facts(id) ON DELETE CASCADE,
    event_type         TEXT NOT NULL,
    event_key          TEXT NOT NULL UNIQUE,
    occurred_at        DATETIME NOT NULL,
    dispatched_at      DATETIME
);
CREATE INDEX payment_events_undispatched_idx ON payment_events (occurred_at) WHERE dispatched_at IS NULL;
