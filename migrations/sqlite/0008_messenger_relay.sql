-- Messenger relay of messenger_a.bot integrations: the relay itself (its path key, the sealed
-- webhook secret, webhook or polling mode, and the polling state with its lease, so one
-- instance at a time polls a bot), the bot updates it received, stored once each, and the
-- bot dialog state per integration and chat that bot.set_state writes.

CREATE TABLE messenger_relays (
    action_dependency_id   TEXT PRIMARY KEY REFERENCES action_dependencies(id) ON DELETE CASCADE,
    company_id             TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id             TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    relay_key              TEXT NOT NULL UNIQUE,
    webhook_secret_sealed  TEXT NOT NULL,
    webhook_secret_masked  TEXT NOT NULL,
    mode                   TEXT NOT NULL,
    poll_offset            BIGINT NOT NULL,
    poll_lease_owner       TEXT NOT NULL,
    poll_lease_until       DATETIME,
    poll_error             TEXT NOT NULL,
    polled_at              DATETIME,
    created_at             DATETIME NOT NULL,
    updated_at             DATETIME NOT NULL
);
CREATE INDEX messenger_relays_mode_idx ON messenger_relays (mode, poll_lease_until);

CREATE TABLE relay_updates (
    id                     TEXT PRIMARY KEY,
    company_id             TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id             TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    action_dependency_id   TEXT NOT NULL REFERENCES action_dependencies(id) ON DELETE CASCADE,
    update_id              BIGINT NOT NULL,
    update_type            TEXT NOT NULL,
    chat_id                TEXT NOT NULL,
    payload                TEXT NOT NULL,
    source                 TEXT NOT NULL,
    status                 TEXT NOT NULL,
    run_ids                TEXT NOT NULL,
    received_at            DATETIME NOT NULL,
    dispatched_at          DATETIME,
    UNIQUE (action_dependency_id, update_id)
);
CREATE INDEX relay_updates_status_idx ON relay_updates (status, received_at);

CREATE TABLE bot_sessions (
    id                     TEXT PRIMARY KEY,
    company_id             TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id             TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    action_dependency_id   TEXT NOT NULL REFERENCES action_dependencies(id) ON DELETE CASCADE,
    chat_id                TEXT NOT NULL,
    state_key              TEXT NOT NULL,
    context                TEXT NOT NULL,
    created_at             DATETIME NOT NULL,
    updated_at             DATETIME NOT NULL,
    UNIQUE (action_dependency_id, chat_id)
);
