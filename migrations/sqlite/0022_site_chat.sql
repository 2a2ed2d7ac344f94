-- Site chat: widgets, visitors, visit sessions, co-browse frames, conversations, messages,
-- attachments, calls and recordings (models/sitechat).
--
-- A visit session reserves the id of its visitor's next conversation (conversation_id), so
-- presence can answer it before the conversation exists; the first message creates the row
-- under that id. frame_sequence is the last co-browse sequence handed out for the session:
-- an event batch raises it by its number of frames in the transaction that stores them, so
-- concurrent batches never reuse a sequence (the unique index is the guard). Every JSON
-- document is TEXT, as elsewhere in the schema.

CREATE TABLE site_chat_widgets (
    id                      TEXT PRIMARY KEY,
    company_id              TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id              TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    public_key              TEXT NOT NULL,
    name                    TEXT NOT NULL,
    status                  TEXT NOT NULL,
    title                   TEXT NOT NULL,
    subtitle                TEXT NOT NULL,
    accent_color            TEXT NOT NULL,
    position                TEXT NOT NULL,
    heavy_tracking_default  BOOLEAN NOT NULL,
    sampling_rate           REAL NOT NULL,
    settings_json           TEXT NOT NULL,
    created_at              DATETIME NOT NULL,
    updated_at              DATETIME NOT NULL
);
CREATE UNIQUE INDEX site_chat_widgets_public_key_idx ON site_chat_widgets (public_key);
CREATE INDEX site_chat_widgets_project_idx ON site_chat_widgets (project_id, id);

CREATE TABLE site_visitors (
    id              TEXT PRIMARY KEY,
    company_id      TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id      TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    chat_widget_id  TEXT NOT NULL REFERENCES site_chat_widgets(id) ON DELETE CASCADE,
    anonymous_id    TEXT NOT NULL,
    name            TEXT NOT NULL,
    contact         TEXT NOT NULL,
    created_at      DATETIME NOT NULL,
    last_seen_at    DATETIME NOT NULL
);
CREATE UNIQUE INDEX site_visitors_anonymous_idx ON site_visitors (chat_widget_id, anonymous_id);

CREATE TABLE site_visit_sessions (
    id                 TEXT PRIMARY KEY,
    company_id         TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id         TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    chat_widget_id     TEXT NOT NULL REFERENCES site_chat_widgets(id) ON DELETE CASCADE,
    visitor_id         TEXT NOT NULL REFERENCES site_visitors(id) ON DELETE CASCADE,
    conversation_id    TEXT NOT NULL,
    current_url        TEXT NOT NULL,
    current_title      TEXT NOT NULL,
    state_json         TEXT NOT NULL,
    monitoring_status  TEXT NOT NULL,
    operator_invited   BOOLEAN NOT NULL,
    invite_status      TEXT NOT NULL,
    invite_message     TEXT NOT NULL,
    invite_force       BOOLEAN NOT NULL,
    chat_open          BOOLEAN NOT NULL,
    frame_sequence     BIGINT NOT NULL,
    last_activity_at   DATETIME NOT NULL,
    left_at            DATETIME,
    created_at         DATETIME NOT NULL,
    updated_at         DATETIME NOT NULL
);
CREATE INDEX site_visit_sessions_visitor_idx ON site_visit_sessions (visitor_id, id);
CREATE INDEX site_visit_sessions_active_idx ON site_visit_sessions (project_id, last_activity_at);

CREATE TABLE site_cobrowse_frames (
    id                TEXT PRIMARY KEY,
    company_id        TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    visit_session_id  TEXT NOT NULL REFERENCES site_visit_sessions(id) ON DELETE CASCADE,
    sequence          BIGINT NOT NULL,
    kind              TEXT NOT NULL,
    occurred_at       DATETIME NOT NULL,
    payload_json      TEXT NOT NULL,
    created_at        DATETIME NOT NULL
);
CREATE UNIQUE INDEX site_cobrowse_frames_sequence_idx ON site_cobrowse_frames (visit_session_id, sequence);
CREATE INDEX site_cobrowse_frames_created_idx ON site_cobrowse_frames (created_at);

CREATE TABLE site_chat_conversations (
    id                TEXT PRIMARY KEY,
    company_id        TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id        TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    chat_widget_id    TEXT NOT NULL REFERENCES site_chat_widgets(id) ON DELETE CASCADE,
    visitor_id        TEXT NOT NULL REFERENCES site_visitors(id) ON DELETE CASCADE,
    visit_session_id  TEXT REFERENCES site_visit_sessions(id) ON DELETE SET NULL,
    status            TEXT NOT NULL,
    title             TEXT NOT NULL,
    closed_at         DATETIME,
    created_at        DATETIME NOT NULL,
    updated_at        DATETIME NOT NULL
);
CREATE INDEX site_chat_conversations_visitor_idx ON site_chat_conversations (visitor_id, status);
CREATE INDEX site_chat_conversations_project_idx ON site_chat_conversations (project_id, id);

CREATE TABLE site_chat_messages (
    id               TEXT PRIMARY KEY,
    company_id       TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    conversation_id  TEXT NOT NULL REFERENCES site_chat_conversations(id) ON DELETE CASCADE,
    author_kind      TEXT NOT NULL,
    author_user_id   TEXT,
    author_name      TEXT NOT NULL,
    body             TEXT NOT NULL,
    created_at       DATETIME NOT NULL
);
CREATE INDEX site_chat_messages_conversation_idx ON site_chat_messages (conversation_id, id);

CREATE TABLE site_chat_attachments (
    id               TEXT PRIMARY KEY,
    company_id       TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    conversation_id  TEXT NOT NULL REFERENCES site_chat_conversations(id) ON DELETE CASCADE,
    message_id       TEXT NOT NULL REFERENCES site_chat_messages(id) ON DELETE CASCADE,
    file_name        TEXT NOT NULL,
    content_type     TEXT NOT NULL,
    size_bytes       BIGINT NOT NULL,
    sha256           TEXT NOT NULL,
    storage_key      TEXT NOT NULL,
    created_at       DATETIME NOT NULL
);
CREATE INDEX site_chat_attachments_message_idx ON site_chat_attachments (message_id, id);

CREATE TABLE site_chat_calls (
    id                             TEXT PRIMARY KEY,
    company_id                     TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id                     TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    chat_widget_id                 TEXT NOT NULL REFERENCES site_chat_widgets(id) ON DELETE CASCADE,
    visitor_id                     TEXT NOT NULL REFERENCES site_visitors(id) ON DELETE CASCADE,
    visit_session_id               TEXT NOT NULL REFERENCES site_visit_sessions(id) ON DELETE CASCADE,
    conversation_id                TEXT,
    direction                      TEXT NOT NULL,
    requested_by                   TEXT NOT NULL,
    requested_by_user_id           TEXT,
    answered_by_user_id            TEXT,
    status                         TEXT NOT NULL,
    media_kind                     TEXT NOT NULL,
    recording_enabled              BOOLEAN NOT NULL,
    end_reason                     TEXT NOT NULL,
    metadata_json                  TEXT NOT NULL,
    started_at                     DATETIME,
    ended_at                       DATETIME,
    last_signal_at                 DATETIME,
    privacy_consent_accepted_at    DATETIME,
    recording_consent_accepted_at  DATETIME,
    created_at                     DATETIME NOT NULL,
    updated_at                     DATETIME NOT NULL
);
CREATE INDEX site_chat_calls_session_idx ON site_chat_calls (visit_session_id, id);
CREATE INDEX site_chat_calls_ringing_idx ON site_chat_calls (created_at) WHERE status IN ('offered', 'ringing');

CREATE TABLE site_chat_recordings (
    id               TEXT PRIMARY KEY,
    company_id       TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    call_session_id  TEXT NOT NULL REFERENCES site_chat_calls(id) ON DELETE CASCADE,
    file_name        TEXT NOT NULL,
    content_type     TEXT NOT NULL,
    size_bytes       BIGINT NOT NULL,
    sha256           TEXT NOT NULL,
    storage_key      TEXT NOT NULL,
    created_by       TEXT NOT NULL,
    created_at       DATETIME NOT NULL
);
CREATE INDEX site_chat_recordings_call_idx ON site_chat_recordings (call_session_id, id);
