-- Desktop messages: the per-user inbox (models/desktop). The product's own events (a task
-- assigned, a tool call awaiting approval, a failed run, a due payment) post here; sequence
-- numbers a user's messages in the order they were stored, the position a stream resumes
-- from, and dedupe_key makes a retried post store nothing new.
CREATE TABLE desktop_messages (
    id            TEXT PRIMARY KEY,
    company_id    TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    project_id    TEXT REFERENCES projects(id) ON DELETE CASCADE,
    sequence      INTEGER NOT NULL,
    kind          TEXT NOT NULL,
    title         TEXT NOT NULL,
    body          TEXT NOT NULL DEFAULT '',
    subject_type  TEXT NOT NULL DEFAULT '',
    subject_id    TEXT NOT NULL DEFAULT '',
    dedupe_key    TEXT NOT NULL,
    created_at    DATETIME NOT NULL,
    acked_at      DATETIME
);
CREATE UNIQUE INDEX desktop_messages_sequence_idx ON desktop_messages (user_id, sequence);
CREATE UNIQUE INDEX desktop_messages_dedupe_idx ON desktop_messages (user_id, dedupe_key);
