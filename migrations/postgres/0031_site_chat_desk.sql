-- The operator's desk (docs/site-chat.md). A conversation keeps its last message, which
-- the list previews, and the visitor's last message, which tells whether an operator has
-- read it all; the list shows the newest activity (updated_at) first. An operator's
-- reading of a conversation is the last message they had read: the visitor's messages
-- after it are their unread ones.
ALTER TABLE site_chat_conversations ADD COLUMN last_message_id UUID;
ALTER TABLE site_chat_conversations ADD COLUMN last_visitor_message_id UUID;
UPDATE site_chat_conversations SET
    last_message_id = (SELECT m.id FROM site_chat_messages m
        WHERE m.conversation_id = site_chat_conversations.id ORDER BY m.id DESC LIMIT 1),
    last_visitor_message_id = (SELECT m.id FROM site_chat_messages m
        WHERE m.conversation_id = site_chat_conversations.id AND m.author_kind = 'visitor' ORDER BY m.id DESC LIMIT 1);
CREATE INDEX site_chat_conversations_activity_idx ON site_chat_conversations (project_id, updated_at, id);

CREATE TABLE site_chat_reads (
    conversation_id       UUID NOT NULL REFERENCES site_chat_conversations(id) ON DELETE CASCADE,
    user_id               UUID NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    company_id            UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    last_read_message_id  UUID,
    read_at               TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (conversation_id, user_id)
);
