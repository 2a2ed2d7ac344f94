package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"agencyhub/activities/llm"
	"agencyhub/models"
	"agencyhub/models/aiemployee"
	"agencyhub/models/integration"
)

// modelCallTimeout bounds one call of a model list or an evaluation task.
const modelCallTimeout = 60 * time.Second

// ModelList answers the integration's model list: the cached one unless refresh, or
// none is cached. Errors: conflict (not a model provider), upstream (the provider failed).
func (a *Agent) ModelList(ctx context.Context, d *integration.ActionDependency, refresh bool) (*aiemployee.ModelList, bool, error) {
	if d.DependencyTypeKey != TypeAIModelProvider {
		return nil, false, models.Conflict("not_a_model_provider", "action_dependency_id")
	}
	if !refresh {
		if cached, err := a.Store.CachedModels(ctx, d.CompanyID, d.ID); cached != nil || err != nil {
			return cached, true, err
		}
	}
	client, err := a.clientOf(d)
	if err != nil {
		return nil, false, err
	}
	ctx, cancel := context.WithTimeout(ctx, modelCallTimeout)
	defer cancel()
	list, err := client.Models(ctx)
	if err != nil {
		return nil, false, providerFailed(err)
	}
	rows := make([]map[string]any, 0, len(list))
	for _, m := range list {
		rows = append(rows, map[string]any{"id": m.ID, "owned_by": m.OwnedBy})
	}
	l, err := a.Store.CacheModels(ctx, d.CompanyID, d.ProjectID, d.ID, rows)
	return l, false, err
}

func (a *Agent) clientOf(d *integration.ActionDependency) (*llm.Client, error) {
	u, err := a.Integrations.UnsealDependency(d)
	if err != nil {
		return nil, err
	}
	return a.llm(u), nil
}

func providerFailed(err error) error {
	return &models.Error{Kind: models.KindUpstream, Key: "ai_provider_failed", Err: err}
}

// evalTask is one task of the fixed evaluation set: a prompt, maybe a tool to call, and
// the check its answer must pass.
type evalTask struct {
	key    string
	prompt string
	tool   *llm.Tool
	check  func(r llm.Reply) bool
}

// evalTasks are what an employee needs of a model: following an exact instruction,
// arithmetic, answering JSON only, and calling a tool with the right argument.
var evalTasks = []evalTask{
	{key: "exact_reply", prompt: "Reply with exactly the word OK and nothing else.",
		check: func(r llm.Reply) bool { return strings.Trim(strings.TrimSpace(r.Content), ".!") == "OK" }},
	{key: "arithmetic", prompt: "What is 17 + 25? Answer with the number only.",
		check: func(r llm.Reply) bool { return strings.TrimSpace(r.Content) == "42" }},
	{key: "json_only", prompt: `Answer with the JSON object {"status": "ok"} and nothing else.`,
		check: func(r llm.Reply) bool {
			var v map[string]any
			return json.Unmarshal([]byte(strings.TrimSpace(r.Content)), &v) == nil && v["status"] == "ok"
		}},
	{key: "tool_call", prompt: "Look up the order A-17 with the lookup_order tool.",
		tool: &llm.Tool{
			Name:        "lookup_order",
			Description: "Look up an order by its id.",
			Parameters: map[string]any{
				"type":       "object",
				"required":   []any{"order_id"},
				"properties": map[string]any{"order_id": map[string]any{"type": "string"}},
			},
		},
		check: func(r llm.Reply) bool {
			for _, c := range r.ToolCalls {
				var in map[string]any
				if c.Name == "lookup_order" && json.Unmarshal([]byte(c.Arguments), &in) == nil && in["order_id"] == "A-17" {
					return true
				}
			}
			return false
		}},
}

// Evaluation is the outcome of evaluating models on the task set.
type Evaluation struct {
	Score           float64
	SelectedModelID string
	Items           []map[string]any
}

// Evaluate runs the task set on each model (the integration's default model, else the
// first listed, when none is named) and selects the best scoring one. A task the provider
// refused or failed counts as failed. Errors: conflict (not a model provider), upstream
// (no model to evaluate could be found).
func (a *Agent) Evaluate(ctx context.Context, d *integration.ActionDependency, modelIDs []string) (*Evaluation, error) {
	if d.DependencyTypeKey != TypeAIModelProvider {
		return nil, models.Conflict("not_a_model_provider", "action_dependency_id")
	}
	client, err := a.clientOf(d)
	if err != nil {
		return nil, err
	}
	if len(modelIDs) == 0 {
		def, _ := d.Metadata["default_model"].(string)
		if def == "" {
			list, _, err := a.ModelList(ctx, d, false)
			if err != nil {
				return nil, err
			}
			if len(list.Models) == 0 {
				return nil, providerFailed(errors.New("the provider lists no model"))
			}
			def, _ = list.Models[0]["id"].(string)
		}
		modelIDs = []string{def}
	}
	out := &Evaluation{Items: []map[string]any{}, Score: -1}
	for _, model := range modelIDs {
		passed := 0
		for _, task := range evalTasks {
			req := llm.Request{Model: model, Messages: []llm.Message{{Role: "user", Content: task.prompt}}}
			if task.tool != nil {
				req.Tools = []llm.Tool{*task.tool}
			}
			callCtx, cancel := context.WithTimeout(ctx, modelCallTimeout)
			start := time.Now()
			reply, err := client.Chat(callCtx, req, nil)
			cancel()
			ok := err == nil && task.check(reply)
			item := map[string]any{"model_id": model, "task": task.key, "passed": ok, "latency_ms": time.Since(start).Milliseconds()}
			if err != nil {
				item["error"] = err.Error()
			}
			if ok {
				passed++
			}
			out.Items = append(out.Items, item)
		}
		score := float64(passed) / float64(len(evalTasks))
		if score > out.Score {
			out.Score, out.SelectedModelID = score, model
		}
	}
	return out, nil
}
