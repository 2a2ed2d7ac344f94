package activities

import (
	"net/http"

	"agencyhub/activities/egress"
)

// Action type keys of the actions in Registry. bot.set_state, condition.branch, delay.wait,
// stop and the triggers are the engine's own.
const (
	ActionHTTPRequest           = "http.request"
	ActionMessengerASendMessage = "messenger_a.send_message"
	ActionMessengerBSendMessage = "messenger_b.send_message"
	ActionEmailSend             = "email.send"
	ActionDBQuery               = "db.query"
)

// Deps is what the actions need from the server.
type Deps struct {
	ActionDependencies ActionDependencies
	// EgressPolicy is APP_EGRESS_ALLOW parsed. It builds Egress when that is nil, and is
	// checked against the SMTP server of email.send.
	EgressPolicy egress.Policy
	// Egress is the HTTP client of http.request and the bot APIs; nil means
	// egress.NewClient(EgressPolicy, egress.DefaultMaxBody).
	Egress *http.Client
	// MessengerABaseURL and MessengerBBaseURL are the bot API addresses for integrations
	// that set no api_base_url.
	MessengerABaseURL, MessengerBBaseURL string
	// Tasks creates the tasks of task.create; nil leaves the action to other workers.
	Tasks TaskStore
}

// Registry maps action type keys to their functions.
func Registry(d Deps) map[string]Func {
	client := d.Egress
	if client == nil {
		client = egress.NewClient(d.EgressPolicy, egress.DefaultMaxBody)
	}
	actions := map[string]Func{
		ActionHTTPRequest: HTTPRequest{ActionDependencies: d.ActionDependencies, Client: client}.Run,
		ActionMessengerASendMessage: MessengerASendMessage{
			ActionDependencies: d.ActionDependencies,
			Client:             client,
			DefaultBaseURL:     d.MessengerABaseURL,
		}.Run,
		ActionMessengerBSendMessage: MessengerBSendMessage{
			ActionDependencies: d.ActionDependencies,
			Client:             client,
			DefaultBaseURL:     d.MessengerBBaseURL,
		}.Run,
		ActionEmailSend: EmailSend{ActionDependencies: d.ActionDependencies, Policy: d.EgressPolicy}.Run,
		ActionDBQuery:   DBQuery{ActionDependencies: d.ActionDependencies, Policy: d.EgressPolicy}.Run,
	}
	if d.Tasks != nil {
		actions[ActionTaskCreate] = TaskCreate{Tasks: d.Tasks}.Run
	}
	return actions
}
