package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/engine/agent"
	"agencyhub/models/aiemployee"
	"agencyhub/models/integration"
)

type aiModelListView struct {
	ActionDependencyID uuid.UUID        `json:"action_dependency_id"`
	DependencyTypeKey  string           `json:"dependency_type_key"`
	ProviderKey        string           `json:"provider_key"`
	Name               string           `json:"name"`
	Source             string           `json:"source"`
	FetchedAt          time.Time        `json:"fetched_at"`
	Models             []map[string]any `json:"models"`
}

func viewModelList(d *integration.ActionDependency, l *aiemployee.ModelList, cached bool) aiModelListView {
	source := "provider"
	if cached {
		source = "cache"
	}
	models := l.Models
	if models == nil {
		models = []map[string]any{}
	}
	return aiModelListView{
		ActionDependencyID: d.ID,
		DependencyTypeKey:  d.DependencyTypeKey,
		ProviderKey:        agent.ProviderOpenAICompatible,
		Name:               d.Name,
		Source:             source,
		FetchedAt:          l.FetchedAt,
		Models:             models,
	}
}

// aiModelsByDependency serves GET .../action-dependencies/{action_dependency_id}/models:
// the provider's model list, from the cache once fetched (source tells which).
func (s *Server) aiModelsByDependency(c *gin.Context) { s.serveModels(c, false) }

// aiModelsRefresh serves POST .../action-dependencies/{action_dependency_id}/models/refresh:
// the list fetched from the provider now, and cached.
func (s *Server) aiModelsRefresh(c *gin.Context) { s.serveModels(c, true) }

func (s *Server) serveModels(c *gin.Context, refresh bool) {
	d := actionDependency(c)
	l, cached, err := s.Agent.ModelList(c, d, refresh)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewModelList(d, l, cached))
}

type aiModelsEvaluateRequest struct {
	ModelIDs []string `json:"model_ids"`
}

type aiModelEvaluationView struct {
	ActionDependencyID uuid.UUID        `json:"action_dependency_id"`
	ProviderKey        string           `json:"provider_key"`
	SelectedModelID    string           `json:"selected_model_id"`
	Score              float64          `json:"score"`
	Items              []map[string]any `json:"items"`
}

// aiModelsEvaluate serves POST .../action-dependencies/{action_dependency_id}/models/evaluate:
// the models named (or the integration's default) run a small fixed task set, each
// answer scored by a check; the best scoring model is selected.
func (s *Server) aiModelsEvaluate(c *gin.Context) {
	var req aiModelsEvaluateRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	d := actionDependency(c)
	ev, err := s.Agent.Evaluate(c, d, req.ModelIDs)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, aiModelEvaluationView{ActionDependencyID: d.ID, ProviderKey: agent.ProviderOpenAICompatible,
		SelectedModelID: ev.SelectedModelID, Score: ev.Score, Items: ev.Items})
}
