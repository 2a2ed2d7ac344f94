-- Documents of payment actions (invoices, acts, receipts): the file is in the blob store
-- under storage_key; the row keeps what the store answered (size, sniffed type, SHA-256).

CREATE TABLE payment_action_documents (
    id                 UUID PRIMARY KEY,
    company_id         UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    payment_action_id  UUID NOT NULL REFERENCES payment_actions(id) ON DELETE CASCADE,
    kind               TEXT NOT NULL,
    file_name          TEXT NOT NULL,
    content_type       TEXT NOT NULL,
    size_bytes         BIGINT NOT NULL,
    sha256             TEXT NOT NULL,
    storage_key        TEXT NOT NULL,
    created_by         UUID NOT NULL,
    created_at         TIMESTAMPTZ NOT NULL
);
CREATE INDEX payment_action_documents_action_idx ON payment_action_documents (payment_action_id, id);
