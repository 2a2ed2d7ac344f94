-- The W3C traceparent of the request that accepted a queued run (a webhook delivery) when
-- tracing was on: intake.Dispatcher starts the run's execution in that trace, so one trace
-- leads from the delivery to the run's actions. Empty for every other run.
ALTER TABLE workflow_runs ADD COLUMN trace_parent TEXT NOT NULL DEFAULT '';
