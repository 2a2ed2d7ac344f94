package aiemployee

// States of AICapability.state, lowest first.
const (
	StateDisabled             = "disabled"
	StateDeterministicPreview = "deterministic_preview"
	StateReadOnly             = "read_only"
	StateProposalOnly         = "proposal_only"
	StateReady                = "ready"
)

// Runtimes of AICapability.runtime: what answers a session's messages.
const (
	RuntimeNone          = "none"
	RuntimeDeterministic = "deterministic"
	RuntimeAgent         = "temporal_agent"
)

// Statuses of a capability dependency.
const (
	DependencyOK          = "ok"
	DependencyMissing     = "missing"
	DependencyUntested    = "untested"
	DependencyFailed      = "failed"
	DependencyDisabled    = "disabled"
	DependencyUnavailable = "unavailable"
)

// Dependency names of a capability.
const (
	DependencyModelProvider = "model_provider"
	DependencyAgentRuntime  = "agent_runtime"
)

// ProviderHealth is what the ladder needs to know of the employee's model provider: its
// status (one of the Dependency* values) and, when there is one, its integration id and
// name.
type ProviderHealth struct {
	Status string
	ID     string
	Name   string
}

// Capability is what the employee can do now and why. Reasons are message codes, which
// the API words in the caller's language; each dependency's Detail is one too.
type Capability struct {
	State           string
	Runtime         string
	Production      bool
	AllowsRead      bool
	AllowsProposals bool
	AllowsWrites    bool
	Reasons         []string
	Dependencies    map[string]CapabilityDependency
}

// CapabilityDependency is the state of one thing the employee needs.
type CapabilityDependency struct {
	Status string
	Detail string
}

// Ladder is the one place the capability is computed: off is disabled; on without a
// usable model provider is the deterministic preview, which reads the project without a
// model; with one, the permission setting decides between read_only, proposal_only and
// ready. runtimeUp tells whether the agent runtime (the Temporal worker) answers.
func Ladder(e *Employee, provider ProviderHealth, runtimeUp bool) Capability {
	c := Capability{Dependencies: map[string]CapabilityDependency{
		DependencyModelProvider: {Status: provider.Status, Detail: "provider_" + provider.Status},
		DependencyAgentRuntime:  {Status: DependencyOK, Detail: "runtime_in_process"},
	}}
	if !runtimeUp {
		c.Dependencies[DependencyAgentRuntime] = CapabilityDependency{Status: DependencyUnavailable, Detail: "runtime_unavailable"}
	}
	switch {
	case !e.Enabled:
		c.State, c.Runtime = StateDisabled, RuntimeNone
		c.Reasons = []string{"employee_disabled"}
		return c
	case provider.Status != DependencyOK:
		c.State, c.Runtime = StateDeterministicPreview, RuntimeDeterministic
		c.AllowsRead = true
		c.Reasons = []string{"provider_" + provider.Status, "preview_answers_from_project_data"}
		return c
	}
	c.Runtime, c.Production, c.AllowsRead = RuntimeAgent, true, true
	switch e.Permission {
	case PermissionRead:
		c.State = StateReadOnly
		c.Reasons = []string{"permission_read"}
	case PermissionPropose:
		c.State, c.AllowsProposals = StateProposalOnly, true
		c.Reasons = []string{"permission_propose"}
	default:
		c.State, c.AllowsProposals, c.AllowsWrites = StateReady, true, true
		c.Reasons = []string{"permission_write"}
		if !e.AllowLowRiskWrites {
			c.Reasons = append(c.Reasons, "writes_need_approval")
		}
	}
	return c
}
