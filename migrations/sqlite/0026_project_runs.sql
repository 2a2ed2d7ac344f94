-- The runs of a project, in id (creation) order either way: GET /projects/{id}/runs.
CREATE INDEX workflow_runs_project_idx ON workflow_runs (project_id, id);
