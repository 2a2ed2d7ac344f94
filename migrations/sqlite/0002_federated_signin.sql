-- Federated and device sign-in: accounts at identity providers, provider sign-ins in
-- progress, the long-lived credentials of native and desktop sessions, and desktop sign-in
-- requests (device authorization, RFC 8628).

-- Which provider account (provider + subject) signs in as which user.
CREATE TABLE user_identities (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    provider   TEXT NOT NULL,
    subject    TEXT NOT NULL,
    email      TEXT NOT NULL,
    created_at DATETIME NOT NULL,
    UNIQUE (provider, subject)
);
CREATE INDEX user_identities_user_idx ON user_identities (user_id);

-- One identity-provider sign-in from start to callback; the signed state names the row. A
-- native app's sign-in also keeps the app's deep link and PKCE challenge and, after the
-- callback, the user and the hash of our one-time exchange code.
CREATE TABLE oauth_flows (
    id                    TEXT PRIMARY KEY,
    provider              TEXT NOT NULL,
    native_redirect_uri   TEXT NOT NULL,
    native_code_challenge TEXT NOT NULL,
    device_label          TEXT NOT NULL,
    expires_at            DATETIME NOT NULL,
    completed_at          DATETIME,
    user_id               TEXT REFERENCES users(id) ON DELETE CASCADE,
    exchange_code_hash    TEXT UNIQUE,
    exchange_expires_at   DATETIME,
    exchanged_at          DATETIME,
    created_at            DATETIME NOT NULL
);
CREATE INDEX oauth_flows_expires_idx ON oauth_flows (expires_at);

-- The long-lived credential of a native or desktop session; only its hash is kept, and it
-- stops working when its session ends.
CREATE TABLE device_credentials (
    session_id  TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    secret_hash TEXT NOT NULL UNIQUE,
    created_at  DATETIME NOT NULL
);

-- A desktop app's sign-in request, approved or denied by the user in a signed-in browser.
CREATE TABLE desktop_authorizations (
    id               TEXT PRIMARY KEY,
    device_code_hash TEXT NOT NULL UNIQUE,
    user_code        TEXT NOT NULL UNIQUE,
    device_label     TEXT NOT NULL,
    status           TEXT NOT NULL,
    user_id          TEXT REFERENCES users(id) ON DELETE CASCADE,
    interval_seconds INTEGER NOT NULL,
    last_polled_at   DATETIME,
    expires_at       DATETIME NOT NULL,
    decided_at       DATETIME,
    created_at       DATETIME NOT NULL
);
CREATE INDEX desktop_authorizations_expires_idx ON desktop_authorizations (expires_at);
