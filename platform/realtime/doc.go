// Package realtime owns the service's real-time event bus: notifications published under a
// topic ("run:<id>", "user:<id>", "chat:<project id>", "call:<id>") and handed to the
// subscribers of that topic, in this process (Local) or in every instance that shares the
// PostgreSQL database (Postgres, over LISTEN/NOTIFY).
//
// A message is a notification, not a record: it tells a subscriber that something changed,
// and the subscriber re-reads the database. Delivery is at most once (a subscriber that
// does not keep up loses messages, and an instance whose listener is reconnecting misses
// those other instances send meanwhile), so every subscriber also keeps a slow safety
// poll, or reads again when its subscription tells it that it missed messages (Missed),
// and in exchange Publish never waits for a subscriber. For the same reason a
// message carries ids and statuses, never documents.
package realtime
