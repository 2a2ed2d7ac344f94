-- Users, sessions, credentials, mail outbox, companies, projects, legal entities.

CREATE TABLE users (
    id                TEXT PRIMARY KEY,
    email             TEXT NOT NULL UNIQUE,
    name              TEXT NOT NULL,
    password_hash     TEXT NOT NULL,
    status            TEXT NOT NULL,
    email_verified_at DATETIME,
    created_at        DATETIME NOT NULL,
    updated_at        DATETIME NOT NULL
);

-- One-time tokens mailed to a user (activation, password reset); only their hash is kept.
CREATE TABLE user_tokens (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    expires_at DATETIME NOT NULL,
    used_at    DATETIME,
    created_at DATETIME NOT NULL
);
CREATE INDEX user_tokens_user_idx ON user_tokens (user_id, purpose);

CREATE TABLE sessions (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    client_type  TEXT NOT NULL,
    device_label TEXT NOT NULL,
    ip_address   TEXT NOT NULL,
    created_at   DATETIME NOT NULL,
    last_seen_at DATETIME NOT NULL,
    expires_at   DATETIME NOT NULL,
    revoked_at   DATETIME
);
CREATE INDEX sessions_user_idx ON sessions (user_id, id);

-- Every refresh token a session was given; a rotated one presented again revokes the session.
CREATE TABLE refresh_tokens (
    token_hash TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    created_at DATETIME NOT NULL,
    rotated_at DATETIME
);
CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id);

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    prefix       TEXT NOT NULL UNIQUE,
    secret_hash  TEXT NOT NULL,
    created_at   DATETIME NOT NULL,
    last_used_at DATETIME,
    expires_at   DATETIME,
    revoked_at   DATETIME
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id, id);

CREATE TABLE login_failures (
    id             TEXT PRIMARY KEY,
    email          TEXT NOT NULL,
    client_address TEXT NOT NULL,
    created_at     DATETIME NOT NULL
);
CREATE INDEX login_failures_email_idx ON login_failures (email, created_at);
CREATE INDEX login_failures_address_idx ON login_failures (client_address, created_at);
CREATE INDEX login_failures_created_idx ON login_failures (created_at);

CREATE TABLE mail_outbox (
    id              TEXT PRIMARY KEY,
    to_address      TEXT NOT NULL,
    subject         TEXT NOT NULL,
    text_body       TEXT NOT NULL,
    status          TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT NOT NULL DEFAULT '',
    next_attempt_at DATETIME NOT NULL,
    created_at      DATETIME NOT NULL,
    sent_at         DATETIME
);
CREATE INDEX mail_outbox_pending_idx ON mail_outbox (status, next_attempt_at);

CREATE TABLE companies (
    id         TEXT PRIMARY KEY,
    slug       TEXT NOT NULL UNIQUE,
    name       TEXT NOT NULL,
    created_at DATETIME NOT NULL,
    updated_at DATETIME NOT NULL
);

CREATE TABLE company_members (
    company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role       TEXT NOT NULL,
    created_at DATETIME NOT NULL,
    PRIMARY KEY (company_id, user_id)
);
CREATE INDEX company_members_user_idx ON company_members (user_id, company_id);

CREATE TABLE projects (
    id                 TEXT PRIMARY KEY,
    company_id         TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name               TEXT NOT NULL,
    hook_key           TEXT NOT NULL UNIQUE,
    hook_secret_sealed TEXT NOT NULL,
    created_at         DATETIME NOT NULL,
    updated_at         DATETIME NOT NULL
);
CREATE INDEX projects_company_idx ON projects (company_id, id);

CREATE TABLE workspace_contexts (
    user_id           TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    active_company_id TEXT REFERENCES companies(id) ON DELETE SET NULL,
    active_project_id TEXT REFERENCES projects(id) ON DELETE SET NULL,
    updated_at        DATETIME NOT NULL
);

CREATE TABLE company_legal_entities (
    id                    TEXT PRIMARY KEY,
    company_id            TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    entity_type           TEXT NOT NULL,
    name                  TEXT NOT NULL,
    inn                   TEXT NOT NULL,
    kpp                   TEXT NOT NULL,
    ogrn                  TEXT NOT NULL,
    ogrnip                TEXT NOT NULL,
    legal_address         TEXT NOT NULL,
    actual_address        TEXT NOT NULL,
    postal_address        TEXT NOT NULL,
    bank_name             TEXT NOT NULL,
    bik                   TEXT NOT NULL,
    settlement_account    TEXT NOT NULL,
    correspondent_account TEXT NOT NULL,
    created_at            DATETIME NOT NULL,
    updated_at            DATETIME NOT NULL
);
CREATE INDEX company_legal_entities_company_idx ON company_legal_entities (company_id, id);
