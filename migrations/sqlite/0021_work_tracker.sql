-- Work tracker: boards, columns, tasks, comments, attachments, checklists, custom fields,
-- task workflows and roles, time entries and timers (models/work).

-- Project members: who works in a project beyond their company role (lead or member).
CREATE TABLE work_project_members (
    company_id    TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id    TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    project_role  TEXT NOT NULL,
    created_at    DATETIME NOT NULL,
    PRIMARY KEY (project_id, user_id)
);
CREATE INDEX work_project_members_user_idx ON work_project_members (company_id, user_id);

-- Task workflows: process templates with ordered stages (the columns of a board started
-- from it) and process roles; default_roles keeps the roles a reset restores.
CREATE TABLE work_task_workflows (
    id             TEXT PRIMARY KEY,
    company_id     TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    description    TEXT NOT NULL,
    preset_key     TEXT NOT NULL,
    stages         TEXT NOT NULL,
    default_roles  TEXT NOT NULL,
    created_at     DATETIME NOT NULL
);
CREATE INDEX work_task_workflows_company_idx ON work_task_workflows (company_id, id);

CREATE TABLE work_task_process_roles (
    id                TEXT PRIMARY KEY,
    company_id        TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    task_workflow_id  TEXT NOT NULL REFERENCES work_task_workflows(id) ON DELETE CASCADE,
    role_key          TEXT NOT NULL,
    name              TEXT NOT NULL,
    description       TEXT NOT NULL,
    user_id           TEXT REFERENCES users(id) ON DELETE SET NULL,
    position          INTEGER NOT NULL,
    UNIQUE (task_workflow_id, role_key)
);

CREATE TABLE work_boards (
    id                TEXT PRIMARY KEY,
    company_id        TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id        TEXT REFERENCES projects(id) ON DELETE CASCADE,
    task_workflow_id  TEXT REFERENCES work_task_workflows(id) ON DELETE SET NULL,
    name              TEXT NOT NULL,
    created_at        DATETIME NOT NULL
);
CREATE INDEX work_boards_company_idx ON work_boards (company_id, id);

CREATE TABLE work_board_columns (
    id          TEXT PRIMARY KEY,
    company_id  TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    board_id    TEXT NOT NULL REFERENCES work_boards(id) ON DELETE CASCADE,
    status      TEXT NOT NULL,
    name        TEXT NOT NULL,
    position    INTEGER NOT NULL,
    is_done     BOOLEAN NOT NULL,
    UNIQUE (board_id, status)
);

-- Custom fields are defined per board: a type (text, number, date, select) and, for a
-- select, its options (a JSON array).
CREATE TABLE work_custom_fields (
    id          TEXT PRIMARY KEY,
    company_id  TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    board_id    TEXT NOT NULL REFERENCES work_boards(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    field_type  TEXT NOT NULL,
    options     TEXT NOT NULL,
    position    INTEGER NOT NULL
);
CREATE INDEX work_custom_fields_board_idx ON work_custom_fields (board_id, position);

-- Tasks. rank orders a column: a base-36 fraction compared byte by byte, so a
-- move writes one row and never renumbers the others; the unique index keeps two tasks of a
-- column from sharing a place. source_key makes a task.create action create one task per
-- run and action however often it is retried.
CREATE TABLE work_tasks (
    id            TEXT PRIMARY KEY,
    company_id    TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    board_id      TEXT NOT NULL REFERENCES work_boards(id) ON DELETE CASCADE,
    column_id     TEXT NOT NULL REFERENCES work_board_columns(id),
    project_id    TEXT REFERENCES projects(id) ON DELETE SET NULL,
    client_id     TEXT REFERENCES clients(id) ON DELETE SET NULL,
    title         TEXT NOT NULL,
    description   TEXT NOT NULL,
    assignee_id   TEXT REFERENCES users(id) ON DELETE SET NULL,
    reporter_id   TEXT REFERENCES users(id) ON DELETE SET NULL,
    priority      TEXT NOT NULL,
    due_date      DATE,
    labels        TEXT NOT NULL,
    rank          TEXT NOT NULL,
    search_text   TEXT NOT NULL,
    source_key    TEXT,
    revision      INTEGER NOT NULL,
    completed_at  DATETIME,
    created_at    DATETIME NOT NULL,
    updated_at    DATETIME NOT NULL
);
CREATE INDEX work_tasks_company_idx ON work_tasks (company_id, id);
CREATE INDEX work_tasks_board_idx ON work_tasks (board_id, id);
CREATE INDEX work_tasks_assignee_idx ON work_tasks (company_id, assignee_id, id);
CREATE INDEX work_tasks_project_idx ON work_tasks (project_id, id);
CREATE INDEX work_tasks_due_idx ON work_tasks (company_id, due_date);
CREATE UNIQUE INDEX work_tasks_rank_idx ON work_tasks (column_id, rank);
CREATE UNIQUE INDEX work_tasks_source_idx ON work_tasks (company_id, source_key) WHERE source_key IS NOT NULL;

CREATE TABLE work_task_comments (
    id          TEXT PRIMARY KEY,
    company_id  TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    task_id     TEXT NOT NULL REFERENCES work_tasks(id) ON DELETE CASCADE,
    author_id   TEXT REFERENCES users(id) ON DELETE SET NULL,
    body        TEXT NOT NULL,
    created_at  DATETIME NOT NULL
);
CREATE INDEX work_task_comments_task_idx ON work_task_comments (task_id, id);

CREATE TABLE work_task_attachments (
    id            TEXT PRIMARY KEY,
    company_id    TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    task_id       TEXT NOT NULL REFERENCES work_tasks(id) ON DELETE CASCADE,
    file_name     TEXT NOT NULL,
    content_type  TEXT NOT NULL,
    size_bytes    BIGINT NOT NULL,
    sha256        TEXT NOT NULL,
    storage_key   TEXT NOT NULL,
    created_by    TEXT NOT NULL,
    created_at    DATETIME NOT NULL
);
CREATE INDEX work_task_attachments_task_idx ON work_task_attachments (task_id, id);

CREATE TABLE work_task_checklist_items (
    id          TEXT PRIMARY KEY,
    company_id  TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    task_id     TEXT NOT NULL REFERENCES work_tasks(id) ON DELETE CASCADE,
    title       TEXT NOT NULL,
    done        BOOLEAN NOT NULL,
    rank        TEXT NOT NULL,
    done_at     DATETIME,
    done_by     TEXT REFERENCES users(id) ON DELETE SET NULL,
    created_at  DATETIME NOT NULL,
    UNIQUE (task_id, rank)
);

-- A custom field's value is JSON of the field's type.
CREATE TABLE work_task_custom_values (
    task_id          TEXT NOT NULL REFERENCES work_tasks(id) ON DELETE CASCADE,
    custom_field_id  TEXT NOT NULL REFERENCES work_custom_fields(id) ON DELETE CASCADE,
    company_id       TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    value            TEXT NOT NULL,
    updated_at       DATETIME NOT NULL,
    PRIMARY KEY (task_id, custom_field_id)
);

-- Timers: the partial unique index lets a user have one running timer at any instant,
-- whatever the requests racing to start one do.
CREATE TABLE work_timers (
    id          TEXT PRIMARY KEY,
    company_id  TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    task_id     TEXT NOT NULL REFERENCES work_tasks(id) ON DELETE CASCADE,
    started_at  DATETIME NOT NULL,
    stopped_at  DATETIME
);
CREATE UNIQUE INDEX work_timers_running_idx ON work_timers (user_id) WHERE stopped_at IS NULL;

-- Time entries: booked by hand or by a stopped timer (timer_id, once per timer).
CREATE TABLE work_time_entries (
    id                TEXT PRIMARY KEY,
    company_id        TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    task_id           TEXT NOT NULL REFERENCES work_tasks(id) ON DELETE CASCADE,
    project_id        TEXT REFERENCES projects(id) ON DELETE SET NULL,
    client_id         TEXT REFERENCES clients(id) ON DELETE SET NULL,
    timer_id          TEXT UNIQUE REFERENCES work_timers(id) ON DELETE SET NULL,
    work_date         DATE NOT NULL,
    duration_seconds  INTEGER NOT NULL,
    note              TEXT NOT NULL,
    created_at        DATETIME NOT NULL
);
CREATE INDEX work_time_entries_company_idx ON work_time_entries (company_id, work_date);
CREATE INDEX work_time_entries_user_idx ON work_time_entries (company_id, user_id, id);

-- Task events that start workflows (task.event_trigger), queued as payment_events are.
CREATE TABLE work_task_events (
    id             TEXT PRIMARY KEY,
    company_id     TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id     TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    task_id        TEXT NOT NULL REFERENCES work_tasks(id) ON DELETE CASCADE,
    board_id       TEXT NOT NULL,
    event_type     TEXT NOT NULL,
    event_key      TEXT NOT NULL UNIQUE,
    actor_id       TEXT,
    from_status    TEXT NOT NULL,
    to_status      TEXT NOT NULL,
    comment_id     TEXT,
    occurred_at    DATETIME NOT NULL,
    dispatched_at  DATETIME
);
CREATE INDEX work_task_events_undispatched_idx ON work_task_events (occurred_at) WHERE dispatched_at IS NULL;
