-- Invitations to a company by e-mail (docs/companies.md). Only the SHA-256 of the mailed
-- token is kept. An invitation is open until it is accepted or revoked; a company has at
-- most one open invitation per e-mail, which inviting again refreshes.
CREATE TABLE company_invitations (
    id                  TEXT PRIMARY KEY,
    company_id          TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    email               TEXT NOT NULL,
    role                TEXT NOT NULL,
    invited_by_user_id  TEXT REFERENCES users(id) ON DELETE SET NULL,
    token_hash          TEXT NOT NULL UNIQUE,
    created_at          DATETIME NOT NULL,
    expires_at          DATETIME NOT NULL,
    accepted_at         DATETIME,
    accepted_by_user_id TEXT REFERENCES users(id) ON DELETE SET NULL,
    revoked_at          DATETIME
);
CREATE UNIQUE INDEX company_invitations_open_idx ON company_invitations (company_id, email)
    WHERE accepted_at IS NULL AND revoked_at IS NULL;
