package engine

import (
	"context"
	"sync"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/temporal"

	"agencyhub/models/automation"
)

// The search attributes every run carries in Temporal, so that an operator can filter runs
// in the Web UI (e.g. AgencyProjectId = "…" AND AgencyRunStatus = "failed").
var (
	saCompany  = temporal.NewSearchAttributeKeyKeyword("AgencyCompanyId")
	saProject  = temporal.NewSearchAttributeKeyKeyword("AgencyProjectId")
	saWorkflow = temporal.NewSearchAttributeKeyKeyword("AgencyWorkflowId")
	saVersion  = temporal.NewSearchAttributeKeyKeyword("AgencyWorkflowVersionId")
	saTrigger  = temporal.NewSearchAttributeKeyKeyword("AgencyTriggerType")
	saStatus   = temporal.NewSearchAttributeKeyKeyword("AgencyRunStatus")
)

// SearchAttributes are the runs' search attributes by name and type. The embedded server
// registers them with its namespace; a cluster needs them registered once, e.g.
// `temporal operator search-attribute create --namespace <ns> --name AgencyCompanyId
// --type Keyword` for each. Until they are, runs start without them.
var SearchAttributes = map[string]enumspb.IndexedValueType{
	saCompany.GetName(): enumspb.INDEXED_VALUE_TYPE_KEYWORD, saProject.GetName(): enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	saWorkflow.GetName(): enumspb.INDEXED_VALUE_TYPE_KEYWORD, saVersion.GetName(): enumspb.INDEXED_VALUE_TYPE_KEYWORD,
	saTrigger.GetName(): enumspb.INDEXED_VALUE_TYPE_KEYWORD, saStatus.GetName(): enumspb.INDEXED_VALUE_TYPE_KEYWORD,
}

// searchAttributes answers a run's search attributes at its start, or nil while the
// namespace lacks them: a start with an attribute the namespace does not know is refused.
func (s *Runs) searchAttributes(ctx context.Context, run *automation.Run) temporal.SearchAttributes {
	if !s.registered(ctx) {
		return temporal.SearchAttributes{}
	}
	updates := []temporal.SearchAttributeUpdate{
		saCompany.ValueSet(run.CompanyID.String()), saProject.ValueSet(run.ProjectID.String()),
		saWorkflow.ValueSet(run.WorkflowID.String()), saTrigger.ValueSet(run.TriggerType),
		saStatus.ValueSet(string(automation.RunRunning)),
	}
	if run.WorkflowVersionID != nil {
		updates = append(updates, saVersion.ValueSet(run.WorkflowVersionID.String()))
	}
	return temporal.NewSearchAttributes(updates...)
}

// registered tells whether the namespace has every search attribute. It asks Temporal once
// it answers, and keeps the answer for the process's life: attributes registered later are
// used from the next start of the service.
func (s *Runs) registered(ctx context.Context) bool {
	if s.Namespace == "" {
		return false
	}
	s.saMu.Lock()
	defer s.saMu.Unlock()
	if s.saKnown {
		return s.saReady
	}
	resp, err := s.Client.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: s.Namespace})
	if err != nil {
		return false // asked again at the next start
	}
	s.saKnown, s.saReady = true, true
	for name := range SearchAttributes {
		if _, ok := resp.GetCustomAttributes()[name]; !ok {
			s.saReady = false
		}
	}
	return s.saReady
}

// searchAttributeState is what Runs knows of the namespace's search attributes.
type searchAttributeState struct {
	saMu             sync.Mutex
	saKnown, saReady bool
}
