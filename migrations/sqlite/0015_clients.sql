-- Clients of a company and what hangs off them: contacts (one primary per client, held by a
-- partial unique index), responsible members, linked projects, the service types of a company
-- or one of its projects (the global ones are a file, schemas/billing/service_types.json, so
-- client_service_type_id has no foreign key) and the services a client is billed for.
-- An INN is unique among a company's clients that are not deleted. Amounts are whole
-- hundredths of the currency unit; next_due_date is a YYYY-MM-DD date, and due_anchor_day the
-- day of the month due dates return to after a short month clamped them.

CREATE TABLE clients (
    id              TEXT PRIMARY KEY,
    company_id      TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    client_type     TEXT NOT NULL,
    status          TEXT NOT NULL,
    name            TEXT NOT NULL,
    full_name       TEXT NOT NULL,
    short_name      TEXT NOT NULL,
    inn             TEXT NOT NULL,
    kpp             TEXT NOT NULL,
    ogrn            TEXT NOT NULL,
    ogrnip          TEXT NOT NULL,
    okved           TEXT NOT NULL,
    legal_address   TEXT NOT NULL,
    actual_address  TEXT NOT NULL,
    comment         TEXT NOT NULL,
    search_text     TEXT NOT NULL,
    created_at      DATETIME NOT NULL,
    updated_at      DATETIME NOT NULL
);
CREATE INDEX clients_company_idx ON clients (company_id, id);
CREATE UNIQUE INDEX clients_inn_idx ON clients (company_id, inn) WHERE inn <> '' AND status <> 'deleted';

CREATE TABLE client_contacts (
    id          TEXT PRIMARY KEY,
    company_id  TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    client_id   TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    email       TEXT NOT NULL,
    phone       TEXT NOT NULL,
    position    TEXT NOT NULL,
    comment     TEXT NOT NULL,
    is_primary  BOOLEAN NOT NULL,
    created_at  DATETIME NOT NULL,
    updated_at  DATETIME NOT NULL
);
CREATE INDEX client_contacts_client_idx ON client_contacts (client_id, id);
CREATE UNIQUE INDEX client_contacts_primary_idx ON client_contacts (client_id) WHERE is_primary;

CREATE TABLE client_responsibles (
    id          TEXT PRIMARY KEY,
    company_id  TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    client_id   TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role        TEXT NOT NULL,
    created_at  DATETIME NOT NULL,
    updated_at  DATETIME NOT NULL
);
CREATE INDEX client_responsibles_client_idx ON client_responsibles (client_id, id);
CREATE UNIQUE INDEX client_responsibles_role_idx ON client_responsibles (client_id, user_id, role);

CREATE TABLE client_projects (
    client_id   TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
    project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    company_id  TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    created_at  DATETIME NOT NULL,
    PRIMARY KEY (client_id, project_id)
);
CREATE INDEX client_projects_project_idx ON client_projects (project_id, client_id);

CREATE TABLE client_service_types (
    id                TEXT PRIMARY KEY,
    company_id        TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id        TEXT REFERENCES projects(id) ON DELETE CASCADE,
    service_type_key  TEXT NOT NULL,
    display_name      TEXT NOT NULL,
    description       TEXT NOT NULL,
    sort_order        INTEGER NOT NULL,
    status            TEXT NOT NULL,
    created_at        DATETIME NOT NULL,
    updated_at        DATETIME NOT NULL
);
CREATE INDEX client_service_types_company_idx ON client_service_types (company_id, project_id, id);
CREATE UNIQUE INDEX client_service_types_key_idx ON client_service_types (company_id, service_type_key);

CREATE TABLE client_services (
    id                      TEXT PRIMARY KEY,
    company_id              TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    client_id               TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
    project_id              TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    client_service_type_id  TEXT NOT NULL,
    name                    TEXT NOT NULL,
    status                  TEXT NOT NULL,
    amount_minor            BIGINT NOT NULL,
    currency                TEXT NOT NULL,
    billing_period          TEXT NOT NULL,
    next_due_date           TEXT,
    due_anchor_day          INTEGER NOT NULL,
    raw_price_text          TEXT NOT NULL,
    metadata_json           TEXT NOT NULL,
    created_at              DATETIME NOT NULL,
    updated_at              DATETIME NOT NULL
);
CREATE INDEX client_services_client_idx ON client_services (client_id, id);
CREATE INDEX client_services_project_idx ON client_services (project_id, id);
CREATE INDEX client_services_due_idx ON client_services (next_due_date) WHERE status = 'active';
