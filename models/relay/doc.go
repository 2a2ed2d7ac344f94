// Package relay owns the messenger relay of messenger_a.bot integrations: the relay of an
// integration (its path key, its sealed webhook secret, webhook or polling mode and the
// polling state with the lease that lets one instance at a time poll a bot), the bot
// updates it receives, each stored once per integration and update id, the dialog state of
// each chat (bot_sessions) that the bot.set_state action writes and relayed runs read, and
// the calls the bot API proxy forwards with the integration's token. Every query filters by
// company and project, or by a relay key that names exactly one integration.
//
// Like models/integration, it imports activities against the usual direction: bot.set_state
// reaches the chat state through activities.BotSessions, whose sentinel error lives there,
// and the proxy and the poller call the bot API with the same client the actions use.
package relay
