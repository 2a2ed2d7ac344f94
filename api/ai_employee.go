package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/engine/agent"
	"agencyhub/models/aiemployee"
	"agencyhub/models/company"
)

// aiReasons words the capability's reason and detail codes in each language.
var aiReasons = map[string]map[string]string{
	"en": {
		"employee_disabled":                 "The project's AI employee is switched off.",
		"provider_missing":                  "The project has no AI model provider integration.",
		"provider_untested":                 "The AI model provider integration has not passed a connection test yet.",
		"provider_failed":                   "The AI model provider integration failed its last connection test.",
		"provider_disabled":                 "The chosen AI model provider integration is disabled.",
		"provider_ok":                       "The AI model provider integration passed its last connection test.",
		"preview_answers_from_project_data": "Without a model, the employee answers from the project's data only (deterministic preview).",
		"permission_read":                   "The employee may read the project, not propose or change anything.",
		"permission_propose":                "The employee may read the project and propose workflow changes; applying them is not allowed.",
		"permission_write":                  "The employee may read, propose and change the project.",
		"writes_need_approval":              "Every change waits for your approval.",
		"runtime_in_process":                "The agent runs in-process on the workflow engine's Temporal worker.",
		"runtime_unavailable":               "The workflow engine (Temporal) does not answer.",
		"runtime_not_configured":            "This instance runs no AI employee.",
	},
	"ru": {
		"employee_disabled":                 "ИИ-сотрудник проекта выключен.",
		"provider_missing":                  "В проекте нет интеграции с провайдером ИИ-моделей.",
		"provider_untested":                 "Интеграция с провайдером ИИ-моделей ещё не прошла проверку подключения.",
		"provider_failed":                   "Интеграция с провайдером ИИ-моделей не прошла последнюю проверку подключения.",
		"provider_disabled":                 "Выбранная интеграция с провайдером ИИ-моделей отключена.",
		"provider_ok":                       "Интеграция с провайдером ИИ-моделей прошла последнюю проверку подключения.",
		"preview_answers_from_project_data": "Без модели сотрудник отвечает только по данным проекта (детерминированный предпросмотр).",
		"permission_read":                   "Сотрудник может читать проект, но не предлагать и не менять изменения.",
		"permission_propose":                "Сотрудник может читать проект и предлагать изменения процессов, но не применять их.",
		"permission_write":                  "Сотрудник может читать, предлагать и менять проект.",
		"writes_need_approval":              "Каждое изменение ждёт вашего одобрения.",
		"runtime_in_process":                "Агент работает внутри процесса, на воркере Temporal движка процессов.",
		"runtime_unavailable":               "Движок процессов (Temporal) не отвечает.",
		"runtime_not_configured":            "Этот экземпляр не запускает ИИ-сотрудника.",
	},
}

func aiReason(c *gin.Context, code string) string {
	if text, ok := aiReasons[httpx.Lang(c)][code]; ok {
		return text
	}
	return aiReasons["en"][code]
}

type aiCapabilityDependencyView struct {
	Status string `json:"status"`
	Detail string `json:"detail"`
}

type aiCapabilityView struct {
	State           string                                `json:"state"`
	Runtime         string                                `json:"runtime"`
	Production      bool                                  `json:"production"`
	AllowsRead      bool                                  `json:"allows_read"`
	AllowsProposals bool                                  `json:"allows_proposals"`
	AllowsWrites    bool                                  `json:"allows_writes"`
	Reasons         []string                              `json:"reasons"`
	Dependencies    map[string]aiCapabilityDependencyView `json:"dependencies"`
}

func viewCapability(c *gin.Context, capab aiemployee.Capability) aiCapabilityView {
	v := aiCapabilityView{
		State:           capab.State,
		Runtime:         capab.Runtime,
		Production:      capab.Production,
		AllowsRead:      capab.AllowsRead,
		AllowsProposals: capab.AllowsProposals,
		AllowsWrites:    capab.AllowsWrites,
		Reasons:         []string{},
		Dependencies:    map[string]aiCapabilityDependencyView{},
	}
	for _, r := range capab.Reasons {
		v.Reasons = append(v.Reasons, aiReason(c, r))
	}
	for name, d := range capab.Dependencies {
		v.Dependencies[name] = aiCapabilityDependencyView{Status: d.Status, Detail: aiReason(c, d.Detail)}
	}
	return v
}

type aiEmployeeView struct {
	ProjectID              uuid.UUID  `json:"project_id"`
	Enabled                bool       `json:"enabled"`
	Permission             string     `json:"permission"`
	AllowLowRiskWrites     bool       `json:"allow_low_risk_writes"`
	ActionDependencyID     *uuid.UUID `json:"action_dependency_id"`
	ModelID                string     `json:"model_id"`
	Instructions           string     `json:"instructions"`
	ApprovalTimeoutSeconds int        `json:"approval_timeout_seconds"`
	UpdatedAt              time.Time  `json:"updated_at"`
}

type aiConfiguredDependencyView struct {
	ActionDependencyID uuid.UUID `json:"action_dependency_id"`
	DependencyTypeKey  string    `json:"dependency_type_key"`
	Name               string    `json:"name"`
	Status             string    `json:"status"`
	Health             string    `json:"health"`
	Selected           bool      `json:"selected"`
}

type aiModelProviderView struct {
	ProviderKey       string   `json:"provider_key"`
	DependencyTypeKey string   `json:"dependency_type_key"`
	DisplayName       string   `json:"display_name"`
	DefaultBaseURL    string   `json:"default_base_url"`
	DocsURL           string   `json:"docs_url"`
	Status            string   `json:"status"`
	ToolLoop          string   `json:"tool_loop"`
	Capabilities      []string `json:"capabilities"`
}

// modelProviders is the catalog of wire formats the employee speaks: one, the
// OpenAI-compatible chat completions API, which local servers speak too.
func (s *Server) modelProviders() []aiModelProviderView {
	return []aiModelProviderView{{
		ProviderKey:       agent.ProviderOpenAICompatible,
		DependencyTypeKey: agent.TypeAIModelProvider,
		DisplayName:       "OpenAI-compatible chat completions",
		DefaultBaseURL:    "https://api.openai.com/v1",
		DocsURL:           s.PublicURL + "/api/v1/action-dependency-types/" + agent.TypeAIModelProvider,
		Status:            "supported",
		ToolLoop:          "temporal_workflow",
		Capabilities:      []string{"chat", "streaming", "tool_calling", "model_list"},
	}}
}

type aiProjectView struct {
	ProjectID uuid.UUID `json:"project_id"`
	CompanyID uuid.UUID `json:"company_id"`
	Name      string    `json:"name"`
}

type aiEmployeeEnvelope struct {
	Capability             aiCapabilityView             `json:"capability"`
	ConfiguredDependencies []aiConfiguredDependencyView `json:"configured_dependencies"`
	Employee               aiEmployeeView               `json:"employee"`
	ModelProviders         []aiModelProviderView        `json:"model_providers"`
	Project                aiProjectView                `json:"project"`
	SetupRequired          bool                         `json:"setup_required"`
}

// employeeEnvelope is the employee of the project with what it can do and why.
func (s *Server) employeeEnvelope(c *gin.Context, p *company.Project) (*aiEmployeeEnvelope, error) {
	capab, e, err := s.Agent.Capability(c, p)
	if err != nil {
		return nil, err
	}
	deps, err := s.Agent.ModelProviders(c, p)
	if err != nil {
		return nil, err
	}
	_, selected, err := s.Agent.Provider(c, p, e.ActionDependencyID)
	if err != nil {
		return nil, err
	}
	out := &aiEmployeeEnvelope{
		Capability: viewCapability(c, capab), ConfiguredDependencies: []aiConfiguredDependencyView{},
		Employee: aiEmployeeView{ProjectID: p.ID, Enabled: e.Enabled, Permission: e.Permission, AllowLowRiskWrites: e.AllowLowRiskWrites,
			ActionDependencyID: e.ActionDependencyID, ModelID: e.ModelID, Instructions: e.Instructions,
			ApprovalTimeoutSeconds: e.ApprovalTimeoutSeconds, UpdatedAt: e.UpdatedAt},
		ModelProviders: s.modelProviders(), Project: aiProjectView{ProjectID: p.ID, CompanyID: p.CompanyID, Name: p.Name},
		SetupRequired: capab.State == aiemployee.StateDeterministicPreview,
	}
	for i := range deps {
		d := &deps[i]
		health, _, _ := s.Agent.Provider(c, p, &d.ID)
		out.ConfiguredDependencies = append(out.ConfiguredDependencies, aiConfiguredDependencyView{
			ActionDependencyID: d.ID, DependencyTypeKey: d.DependencyTypeKey, Name: d.Name, Status: d.Status, Health: health.Status,
			Selected: selected != nil && selected.ID == d.ID,
		})
	}
	return out, nil
}

// aiEmployeeGet serves GET /api/v1/projects/{project_id}/ai/employee: the settings, the
// capability they give, the project's model provider integrations and the provider catalog.
func (s *Server) aiEmployeeGet(c *gin.Context) {
	out, err := s.employeeEnvelope(c, project(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}

type aiEmployeePatchRequest struct {
	Enabled                *bool                     `json:"enabled"`
	Permission             *string                   `json:"permission"`
	AllowLowRiskWrites     *bool                     `json:"allow_low_risk_writes"`
	ActionDependencyID     httpx.Optional[uuid.UUID] `json:"action_dependency_id"`
	ModelID                *string                   `json:"model_id"`
	Instructions           *string                   `json:"instructions"`
	ApprovalTimeoutSeconds *int                      `json:"approval_timeout_seconds"`
}

// aiEmployeePatch serves PATCH /api/v1/projects/{project_id}/ai/employee (owner, admin):
// switch the employee on or off, set what it may do and which provider and model it uses.
func (s *Server) aiEmployeePatch(c *gin.Context) {
	var req aiEmployeePatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	patch := aiemployee.EmployeePatch{Enabled: req.Enabled, Permission: req.Permission, AllowLowRiskWrites: req.AllowLowRiskWrites,
		ModelID: req.ModelID, Instructions: req.Instructions, ApprovalTimeoutSeconds: req.ApprovalTimeoutSeconds}
	if req.ActionDependencyID.Set {
		id := req.ActionDependencyID.Value // uuid.Nil when null: no provider chosen
		patch.ActionDependencyID = &id
	}
	p := project(c)
	if _, err := s.Agent.PatchEmployee(c, p, patch); err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.aiEmployeeGet(c)
}

// aiEmployeeCapability serves GET /api/v1/projects/{project_id}/ai/employee/capability.
func (s *Server) aiEmployeeCapability(c *gin.Context) {
	capab, _, err := s.Agent.Capability(c, project(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewCapability(c, capab))
}

// aiModelProviders serves GET /api/v1/projects/{project_id}/ai/model-providers: the wire
// formats an ai.model_provider integration of the project may speak.
func (s *Server) aiModelProviders(c *gin.Context) {
	renderList(c, s.modelProviders(), "", func(v aiModelProviderView) aiModelProviderView { return v })
}

type aiReadinessView struct {
	OK           bool              `json:"ok"`
	Runtime      string            `json:"runtime"`
	CoreAPI      map[string]any    `json:"core_api"`
	AgentGRPC    map[string]any    `json:"agent_grpc"`
	CheckedAt    time.Time         `json:"checked_at"`
	Capability   *aiCapabilityView `json:"capability,omitempty"`
	EndpointNote string            `json:"endpoint_note"`
	ReadyPolicy  string            `json:"ready_policy"`
}

// readiness checks the API's dependencies and the agent runtime.
func (s *Server) readiness(c *gin.Context) aiReadinessView {
	ctx, cancel := context.WithTimeout(c, 3*time.Second)
	defer cancel()
	checks := map[string]any{}
	coreOK := true
	for _, h := range s.Health {
		if err := h.Check(ctx); err != nil {
			checks[h.Name], coreOK = "down", false
		} else {
			checks[h.Name] = "ok"
		}
	}
	runtimeUp := s.Agent != nil && s.Agent.RuntimeUp(ctx)
	agent := map[string]any{"status": "not_used", "mode": "in_process", "runtime_up": runtimeUp,
		"detail": "The agent runs in-process on the workflow engine's Temporal worker; there is no separate RPC backend."}
	core := map[string]any{"status": "ok", "checks": checks}
	if !coreOK {
		core["status"] = "down"
	}
	return aiReadinessView{
		OK:        coreOK && runtimeUp,
		Runtime:   aiemployee.RuntimeAgent,
		CoreAPI:   core,
		AgentGRPC: agent,
		CheckedAt: s.Now().UTC(),
		EndpointNote: "Readiness of the AI runtime as a whole; a project's own capability is GET " +
			"/api/v1/projects/{project_id}/ai/employee/capability.",
		ReadyPolicy: "ok when the database answers and the workflow engine (Temporal), where every session's agent runs, answers.",
	}
}

func writeReadiness(c *gin.Context, r aiReadinessView) {
	if !r.OK {
		c.Header("X-App-Result", httpx.ResultError)
		c.JSON(http.StatusServiceUnavailable, r)
		return
	}
	c.JSON(http.StatusOK, r)
}

// aiRuntimeReadiness serves GET /api/v1/ai/runtime/readiness and its alias
// /api/v1/ai/agent/readiness (public): 200 when ready, else 503 with the same body.
func (s *Server) aiRuntimeReadiness(c *gin.Context) { writeReadiness(c, s.readiness(c)) }

// aiRuntimeCapabilities serves GET /api/v1/ai/runtime/capabilities (public): readiness
// with the runtime's capability (ready when the agent runtime answers, disabled when this
// instance runs none); 503 with the same body when it cannot serve.
func (s *Server) aiRuntimeCapabilities(c *gin.Context) {
	r := s.readiness(c)
	capab := aiemployee.Capability{
		State:           aiemployee.StateReady,
		Runtime:         aiemployee.RuntimeAgent,
		Production:      true,
		AllowsRead:      true,
		AllowsProposals: true,
		AllowsWrites:    true,
		Reasons:         []string{"runtime_in_process"},
		Dependencies: map[string]aiemployee.CapabilityDependency{
			aiemployee.DependencyAgentRuntime: {Status: aiemployee.DependencyOK, Detail: "runtime_in_process"},
		},
	}
	switch {
	case s.Agent == nil:
		capab = aiemployee.Capability{
			State:   aiemployee.StateDisabled,
			Runtime: aiemployee.RuntimeNone,
			Reasons: []string{"runtime_not_configured"},
			Dependencies: map[string]aiemployee.CapabilityDependency{
				aiemployee.DependencyAgentRuntime: {Status: aiemployee.DependencyMissing, Detail: "runtime_not_configured"},
			},
		}
	case !r.OK:
		capab = aiemployee.Capability{
			State:   aiemployee.StateDisabled,
			Runtime: aiemployee.RuntimeNone,
			Reasons: []string{"runtime_unavailable"},
			Dependencies: map[string]aiemployee.CapabilityDependency{
				aiemployee.DependencyAgentRuntime: {Status: aiemployee.DependencyUnavailable, Detail: "runtime_unavailable"},
			},
		}
	}
	view := viewCapability(c, capab)
	r.Capability = &view
	writeReadiness(c, r)
}
