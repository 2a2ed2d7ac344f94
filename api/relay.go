package api

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/engine/intake"
	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/models/relay"
)

const relayKey = "api.relay"

func relayOf(c *gin.Context) *relay.Relay { return c.MustGet(relayKey).(*relay.Relay) }

// inRelay loads the relay of :relay_key with the caller's standing in its company and
// requires perm. A relay of a company the caller is not in is a 404 like an unknown key.
func (s *Server) inRelay(perm company.Permission) gin.HandlerFunc {
	return func(c *gin.Context) {
		r, err := s.Relays.ByKey(c, c.Param("relay_key"))
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		a, err := s.Company.Access(c, actor(c).UserID, r.CompanyID)
		if models.IsKind(err, models.KindNotFound) {
			err = models.NotFound("relay_not_found")
		}
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		if !a.Role.Can(perm) {
			httpx.WriteError(c, models.Forbidden("role_too_low"))
			return
		}
		c.Set(accessKey, a)
		c.Set(relayKey, r)
	}
}

// relayPollingView is a relay's polling state.
type relayPollingView struct {
	Enabled      bool       `json:"enabled"`
	NextOffset   int64      `json:"next_offset"`
	LastPolledAt *time.Time `json:"last_polled_at"`
	LastError    string     `json:"last_error"`
}

// relayView is a relay on the wire: its addresses, and its webhook secret masked.
type relayView struct {
	ActionDependencyID  uuid.UUID        `json:"action_dependency_id"`
	ProjectID           uuid.UUID        `json:"project_id"`
	RelayKey            string           `json:"relay_key"`
	Mode                string           `json:"mode"`
	WebhookURL          string           `json:"webhook_url"`
	APIURL              string           `json:"api_url"`
	BotAPIProxyURL      string           `json:"bot_api_proxy_url"`
	SecretHeader        string           `json:"secret_header"`
	WebhookSecretMasked string           `json:"webhook_secret_masked"`
	Polling             relayPollingView `json:"polling"`
	CreatedAt           time.Time        `json:"created_at"`
	UpdatedAt           time.Time        `json:"updated_at"`
}

// relayWithSecret is the answer of a rotation: the only time the secret is shown.
type relayWithSecret struct {
	relayView
	WebhookSecret string `json:"webhook_secret"`
}

func (s *Server) viewRelay(r *relay.Relay) relayView {
	return relayView{
		ActionDependencyID: r.ActionDependencyID, ProjectID: r.ProjectID, RelayKey: r.RelayKey, Mode: r.Mode,
		WebhookURL:          s.PublicURL + "/messenger_a/relay/" + r.RelayKey,
		APIURL:              s.PublicURL + "/api/v1/messenger_a/relay/" + r.RelayKey,
		BotAPIProxyURL:      s.PublicURL + "/api/v1/messenger_a/bot-api/" + r.RelayKey,
		SecretHeader:        relay.SecretHeader,
		WebhookSecretMasked: r.WebhookSecretMasked,
		Polling: relayPollingView{Enabled: r.Mode == relay.ModePolling, NextOffset: r.PollOffset,
			LastPolledAt: r.PolledAt, LastError: r.PollError},
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}

// relayGet serves GET /api/v1/projects/{project_id}/action-dependencies/
// {action_dependency_id}/messenger_a-relay. Errors: 400 action_dependency_id when the
// integration is not a messenger_a.bot, 404 relay_not_set_up while it has no relay.
func (s *Server) relayGet(c *gin.Context) {
	r, err := s.Relays.Of(c, actionDependency(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, s.viewRelay(r))
}

type relayPollingRequest struct {
	Enabled bool `json:"enabled"`
}

// relayPolling serves POST /api/v1/projects/{project_id}/action-dependencies/
// {action_dependency_id}/messenger_a-relay-polling. Errors: 400 action_dependency_id when
// the integration is not a messenger_a.bot.
func (s *Server) relayPolling(c *gin.Context) {
	var req relayPollingRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	r, err := s.Relays.SetPolling(c, actionDependency(c), req.Enabled)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, s.viewRelay(r))
}

// relayWebhookSecretRotate serves POST /api/v1/projects/{project_id}/action-dependencies/
// {action_dependency_id}/messenger_a-relay-webhook-secret/rotate: the new secret is in this
// answer only. Errors: 400 action_dependency_id when the integration is not a messenger_a.bot.
func (s *Server) relayWebhookSecretRotate(c *gin.Context) {
	r, secret, err := s.Relays.RotateWebhookSecret(c, actionDependency(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, relayWithSecret{relayView: s.viewRelay(r), WebhookSecret: secret})
}

// relayDeliveryView is what became of a delivered update.
type relayDeliveryView struct {
	UpdateID       int64       `json:"update_id"`
	Duplicate      bool        `json:"duplicate"`
	WorkflowRunIDs []uuid.UUID `json:"workflow_run_ids"`
	RepliedRunIDs  []uuid.UUID `json:"replied_run_ids"`
}

// deliver hands a bound update to the relay and renders what became of it.
func (s *Server) deliver(c *gin.Context, r *relay.Relay, update json.RawMessage, source string) {
	d, err := s.Intake.DeliverRelayUpdate(c, r, update, source)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewDelivery(d))
}

func viewDelivery(d intake.RelayDelivery) relayDeliveryView {
	return relayDeliveryView{UpdateID: d.UpdateID, Duplicate: d.Duplicate, WorkflowRunIDs: d.RunIDs, RepliedRunIDs: d.RepliedRunIDs}
}

// relayDeliverPublic serves POST /messenger_a/relay/{relay_key}, the messenger's webhook
// delivery: the relay's webhook secret in X-Bot-Api-Secret-Token. The body is checked first,
// so a malformed one answers alike whatever the key and secret.
// Errors: 400 (body, relay_key), 404 (unknown key), 401 (missing or wrong secret).
func (s *Server) relayDeliverPublic(c *gin.Context) {
	var update json.RawMessage
	if err := httpx.Bind(c, &update); err != nil {
		httpx.WriteError(c, err)
		return
	}
	r, err := s.Relays.Authenticate(c, c.Param("relay_key"), c.GetHeader(relay.SecretHeader))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.deliver(c, r, update, relay.SourceWebhook)
}

// relayDeliverAPI serves POST /api/v1/messenger_a/relay/{relay_key}: the same delivery for a
// signed-in member (role member or above) of the integration's company.
func (s *Server) relayDeliverAPI(c *gin.Context) {
	var update json.RawMessage
	if err := httpx.Bind(c, &update); err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.deliver(c, relayOf(c), update, relay.SourceAPI)
}

type botAPIRequest struct {
	Params map[string]any `json:"params"`
}

// botAPIProxy serves POST /api/v1/messenger_a/bot-api/{relay_key}/{method}: one call of an
// allowed bot API method with the integration's token, which the caller never sees. The
// bot API's answer comes back as it is, "ok": false included.
// Errors: 400 (method, params), 409 (no token or API address), 503 (no answer).
func (s *Server) botAPIProxy(c *gin.Context) {
	var req botAPIRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	answer, err := s.BotAPI.Call(c, relayOf(c), c.Param("method"), req.Params)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, answer)
}
