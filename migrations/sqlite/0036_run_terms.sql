-- A run is found by what it carried (GET .../runs?q=): the words and whole values of its
-- trigger payload, and of its error once it failed, one row per term (models/automation's
-- run_search.go says how they are cut). Kind input rows are written with the run; kind
-- error rows, for terms its input lacks, when it fails, and dropped when it is made to run
-- again. A search's longest word reads the project index in run order.
CREATE TABLE workflow_run_terms (
    run_id      TEXT NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
    term        TEXT NOT NULL,
    kind        TEXT NOT NULL,
    project_id  TEXT NOT NULL,
    PRIMARY KEY (run_id, term)
);
CREATE INDEX workflow_run_terms_project_idx ON workflow_run_terms (project_id, term, run_id);
