-- The trigger index: one row per trigger action of each workflow's current version, keyed
-- by what its events carry (a webhook's endpoint key, a bot update's integration id), so
-- the engine's trigger intake finds the workflows an event starts with an index hit.
-- Publish and restore rewrite a workflow's rows; the rows below index the versions that are
-- current now.
CREATE TABLE workflow_triggers (
    workflow_id         UUID NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
    action_key          TEXT NOT NULL,
    company_id          UUID NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    project_id          UUID NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    workflow_version_id UUID NOT NULL REFERENCES workflow_versions(id),
    action_type_key     TEXT NOT NULL,
    trigger_key         TEXT NOT NULL,
    position            INTEGER NOT NULL,
    config              TEXT NOT NULL,
    PRIMARY KEY (workflow_id, action_key)
);
CREATE INDEX workflow_triggers_key_idx ON workflow_triggers (project_id, action_type_key, trigger_key);

INSERT INTO workflow_triggers (workflow_id, action_key, company_id, project_id, workflow_version_id,
                               action_type_key, trigger_key, position, config)
SELECT w.id, a.value->>'action_key', w.company_id, w.project_id, v.id,
       a.value->>'action_type_key',
       CASE a.value->>'action_type_key'
           WHEN 'webhook.trigger' THEN COALESCE(a.value->'config'->>'endpoint_key', '')
           WHEN 'messenger_a.relay.trigger' THEN COALESCE(a.value->'config'->>'action_dependency_id', '')
           ELSE ''
       END,
       (a.ordinality - 1)::INTEGER, COALESCE((a.value->'config')::TEXT, '{}')
FROM workflows w
JOIN workflow_versions v ON v.id = w.current_version_id
CROSS JOIN LATERAL jsonb_array_elements(v.actions::JSONB) WITH ORDINALITY AS a(value, ordinality)
WHERE a.value->>'action_type_key' IN
      ('manual.trigger', 'webhook.trigger', 'schedule.trigger', 'messenger_a.relay.trigger');
