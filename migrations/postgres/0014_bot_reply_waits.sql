-- Runs waiting in bot.wait_for_reply for the next update of a chat: one row per run and
-- action while it waits. The relay intake claims the rows an update answers by storing the
-- reply in them (the intent to hand it over); engine.Dispatcher signals each run its reply
-- and deletes the row. An unclaimed row past expires_at is one whose run has timed out.
CREATE TABLE bot_reply_waits (
    id                     UUID PRIMARY KEY,
    company_id             UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id             UUID NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    action_dependency_id   UUID NOT NULL REFERENCES action_dependencies(id) ON DELETE CASCADE,
    chat_id                TEXT NOT NULL,
    run_id                 UUID NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
    action_key             TEXT NOT NULL,
    allowed_updates        TEXT NOT NULL,
    expires_at             TIMESTAMPTZ NOT NULL,
    reply                  TEXT,
    claimed_at             TIMESTAMPTZ,
    created_at             TIMESTAMPTZ NOT NULL,
    UNIQUE (run_id, action_key)
);
CREATE INDEX bot_reply_waits_chat_idx ON bot_reply_waits (action_dependency_id, chat_id);
CREATE INDEX bot_reply_waits_claimed_idx ON bot_reply_waits (claimed_at) WHERE claimed_at IS NOT NULL;
