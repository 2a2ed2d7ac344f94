-- The run a delivery starts gets its id before it starts, so a delivery taken over after a
-- crash finds that run instead of starting a second one.
ALTER TABLE webhook_events ADD COLUMN planned_run_id TEXT;
