-- AI employee: employee settings, sessions, messages, tool calls and patch proposals
-- (models/aiemployee).
--
-- ai_employees holds a project's employee settings; a project without a row has the
-- defaults (on, proposals, no provider chosen). A session's transcript is its messages and
-- tool calls; ai_session_events is the ordered record its streams read and resume from
-- (Last-Event-ID is the sequence), numbered from the session's event_sequence. A tool call's
-- id is derived from its session, turn and step, so a model step retried after a crash
-- stores the same rows again instead of new ones. ai_model_lists caches each model
-- provider integration's model list.

CREATE TABLE ai_employees (
    project_id                UUID PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    company_id                UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    enabled                   BOOLEAN NOT NULL,
    permission                TEXT NOT NULL,
    allow_low_risk_writes     BOOLEAN NOT NULL,
    action_dependency_id      UUID,
    model_id                  TEXT NOT NULL,
    instructions              TEXT NOT NULL,
    approval_timeout_seconds  INTEGER NOT NULL,
    created_at                TIMESTAMPTZ NOT NULL,
    updated_at                TIMESTAMPTZ NOT NULL
);

CREATE TABLE ai_chat_sessions (
    id                        UUID PRIMARY KEY,
    company_id                UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id                UUID NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id                   UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    status                    TEXT NOT NULL,
    session_revision          INTEGER NOT NULL,
    turn                      INTEGER NOT NULL,
    event_sequence            INTEGER NOT NULL,
    agent_runtime             TEXT NOT NULL,
    agent_thread_id           TEXT NOT NULL,
    screen_scope              TEXT NOT NULL,
    action_dependency_id      UUID,
    model_id                  TEXT NOT NULL,
    page_context_json         TEXT NOT NULL,
    last_page_context_json    TEXT NOT NULL,
    runtime_state_json        TEXT NOT NULL,
    working_memory_json       TEXT NOT NULL,
    active_patch_proposal_id  UUID,
    active_tool_call_id       UUID,
    created_at                TIMESTAMPTZ NOT NULL,
    updated_at                TIMESTAMPTZ NOT NULL
);
CREATE INDEX ai_chat_sessions_project_idx ON ai_chat_sessions (project_id, id);

CREATE TABLE ai_chat_messages (
    id            UUID PRIMARY KEY,
    company_id    UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    session_id    UUID NOT NULL REFERENCES ai_chat_sessions(id) ON DELETE CASCADE,
    turn          INTEGER NOT NULL,
    step          INTEGER NOT NULL,
    role          TEXT NOT NULL,
    content       TEXT NOT NULL,
    tool_call_id  UUID,
    created_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX ai_chat_messages_session_idx ON ai_chat_messages (session_id, created_at, id);

CREATE TABLE ai_tool_calls (
    id                  UUID PRIMARY KEY,
    company_id          UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id          UUID NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    session_id          UUID NOT NULL REFERENCES ai_chat_sessions(id) ON DELETE CASCADE,
    message_id          UUID NOT NULL,
    provider_call_id    TEXT NOT NULL,
    turn                INTEGER NOT NULL,
    step                INTEGER NOT NULL,
    position            INTEGER NOT NULL,
    tool_key            TEXT NOT NULL,
    status              TEXT NOT NULL,
    risk_level          TEXT NOT NULL,
    requires_approval   BOOLEAN NOT NULL,
    input_json          TEXT NOT NULL,
    output_json         TEXT NOT NULL,
    decided_by_user_id  UUID,
    decided_at          TIMESTAMPTZ,
    created_at          TIMESTAMPTZ NOT NULL,
    updated_at          TIMESTAMPTZ NOT NULL
);
CREATE INDEX ai_tool_calls_session_idx ON ai_tool_calls (session_id, turn, step, position);

CREATE TABLE ai_patch_proposals (
    id                UUID PRIMARY KEY,
    company_id        UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id        UUID NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    session_id        UUID NOT NULL REFERENCES ai_chat_sessions(id) ON DELETE CASCADE,
    workflow_id       UUID NOT NULL,
    patch_json        TEXT NOT NULL,
    diagnostics_json  TEXT NOT NULL,
    status            TEXT NOT NULL,
    created_at        TIMESTAMPTZ NOT NULL,
    updated_at        TIMESTAMPTZ NOT NULL
);

CREATE TABLE ai_session_events (
    session_id  UUID NOT NULL REFERENCES ai_chat_sessions(id) ON DELETE CASCADE,
    sequence    INTEGER NOT NULL,
    turn        INTEGER NOT NULL,
    event_type  TEXT NOT NULL,
    data_json   TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (session_id, sequence)
);

CREATE TABLE ai_model_lists (
    action_dependency_id  UUID PRIMARY KEY,
    company_id            UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id            UUID NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    models_json           TEXT NOT NULL,
    fetched_at            TIMESTAMPTZ NOT NULL
);
