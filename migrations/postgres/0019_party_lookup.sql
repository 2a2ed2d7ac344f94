-- Party lookup integrations: the registry provider a company, or one of its projects, looks
-- parties up with. project_id is NULL for the company's own settings; a project's settings
-- override the company's. The token is sealed; token_masked is what answers show.

CREATE TABLE party_lookup_integrations (
    id            UUID PRIMARY KEY,
    company_id    UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id    UUID REFERENCES projects(id) ON DELETE CASCADE,
    provider      TEXT NOT NULL,
    api_base_url  TEXT NOT NULL,
    enabled       BOOLEAN NOT NULL,
    token_sealed  TEXT NOT NULL,
    token_masked  TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX party_lookup_integrations_company_idx ON party_lookup_integrations (company_id) WHERE project_id IS NULL;
CREATE UNIQUE INDEX party_lookup_integrations_project_idx ON party_lookup_integrations (project_id) WHERE project_id IS NOT NULL;
