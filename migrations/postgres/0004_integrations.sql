-- Integrations and templates of a project: action dependencies (a provider credential, sealed
-- with AES-GCM, plus metadata and the outcome of the last connection test) and the e-mail and
-- message templates that send actions name. Names are unique within a project, so people can
-- tell them apart where a workflow picks one.

CREATE TABLE action_dependencies (
    id                     UUID PRIMARY KEY,
    company_id             UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id             UUID NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    dependency_type_key    TEXT NOT NULL,
    name                   TEXT NOT NULL,
    status                 TEXT NOT NULL,
    metadata               TEXT NOT NULL,
    auth_sealed            TEXT NOT NULL,
    auth_masked            TEXT NOT NULL,
    last_test_status       TEXT NOT NULL,
    last_test_retry_class  TEXT NOT NULL,
    last_test_reason_code  TEXT NOT NULL,
    last_test_message      TEXT NOT NULL,
    last_tested_at         TIMESTAMPTZ,
    created_at             TIMESTAMPTZ NOT NULL,
    updated_at             TIMESTAMPTZ NOT NULL
);
CREATE INDEX action_dependencies_project_idx ON action_dependencies (project_id, id);
CREATE UNIQUE INDEX action_dependencies_name_idx ON action_dependencies (project_id, name);

CREATE TABLE email_templates (
    id          UUID PRIMARY KEY,
    company_id  UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id  UUID NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    subject     TEXT NOT NULL,
    body        TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX email_templates_project_idx ON email_templates (project_id, id);
CREATE UNIQUE INDEX email_templates_name_idx ON email_templates (project_id, name);

CREATE TABLE message_templates (
    id          UUID PRIMARY KEY,
    company_id  UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id  UUID NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    text        TEXT NOT NULL,
    parse_mode  TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX message_templates_project_idx ON message_templates (project_id, id);
CREATE UNIQUE INDEX message_templates_name_idx ON message_templates (project_id, name);
