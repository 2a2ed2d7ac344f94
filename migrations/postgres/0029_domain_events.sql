-- Domain events waiting for the notifier (models/notify): each is written in the
-- transaction of the change it tells of (models.RecordEvent), so a crash loses none, and
-- deleted once the notifier has posted the desktop messages and counted the metrics it
-- calls for. The payload is the event as JSON.
CREATE TABLE domain_events (
    id           UUID PRIMARY KEY,
    name         TEXT NOT NULL,
    payload      TEXT NOT NULL,
    occurred_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX domain_events_queue_idx ON domain_events (occurred_at, id);
