// Package relay owns the messenger relay of messenger_a.bot integrations: the relay of an
// integration (its path key, its sealed webhook secret, webhook or polling mode and the
// polling state with the lease that lets one instance at a time poll a bot), the bot
// updates it receives, each stored once per integration and update id, and the dialog state
// of each chat (bot_sessions) that the bot.set_state action writes and relayed runs read.
// Calling the bot API belongs to activities, dispatching updates to runs to the engine.
// Every query filters by company and project, or by a relay key that names exactly one
// integration.
package relay
