package api

import (
	"cmp"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/engine/bulk"
	"agencyhub/models"
	"agencyhub/models/automation"
)

// bulkRequest selects runs of a project, by their ids or by a run list's filter, and says
// what to do with them.
type bulkRequest struct {
	Operation      string            `json:"operation"`
	Version        string            `json:"version"`
	WorkflowRunIDs []uuid.UUID       `json:"workflow_run_ids"`
	Filter         map[string]string `json:"filter"`
}

// bulkSelection reads the request's runs and what to do with them: the runs of the
// project among workflow_run_ids, or those the filter keeps (a run list's parameters), at
// most automation.MaxBulkRuns. Errors: invalid (an empty selection, one too large, the
// filter's parameter).
func (s *Server) bulkSelection(c *gin.Context, req bulkRequest) (bulk.Request, error) {
	p := project(c)
	out := bulk.Request{Operation: req.Operation, Latest: req.Version == "latest"}
	var err error
	if req.Filter != nil {
		var filter automation.RunFilter
		if filter, err = runFilter(func(name string) string { return req.Filter[name] }); err != nil {
			return out, err
		}
		out.Runs, err = s.Workflows.SelectRuns(c, p.CompanyID, p.ID, filter, automation.MaxBulkRuns+1)
	} else {
		out.Runs, err = s.Workflows.ProjectRunsByID(c, p.CompanyID, p.ID, req.WorkflowRunIDs)
	}
	field := "workflow_run_ids"
	if req.Filter != nil {
		field = "filter"
	}
	switch {
	case err != nil:
		return out, err
	case len(out.Runs) == 0:
		return out, models.Invalid("bulk_selection_empty", field)
	case len(out.Runs) > automation.MaxBulkRuns:
		return out, models.Invalid("bulk_selection_too_large", field)
	}
	return out, nil
}

type actionTypeCount struct {
	ActionTypeKey string `json:"action_type_key"`
	Count         int    `json:"count"`
}

type bulkRefusalView struct {
	WorkflowRunID uuid.UUID `json:"workflow_run_id"`
	Reason        string    `json:"reason"`
	Message       string    `json:"message"`
}

type bulkPreviewView struct {
	Operation string            `json:"operation"`
	Total     int               `json:"total"`
	Acting    int               `json:"acting"`
	ActsAgain []actionTypeCount `json:"acts_again"`
	Reused    []actionTypeCount `json:"reused"`
	Refused   []bulkRefusalView `json:"refused"`
}

// byActionType lists counts by action type key, the largest first.
func byActionType(counts map[string]int) []actionTypeCount {
	out := []actionTypeCount{}
	for _, key := range slices.Sorted(maps.Keys(counts)) {
		out = append(out, actionTypeCount{ActionTypeKey: key, Count: counts[key]})
	}
	slices.SortStableFunc(out, func(a, b actionTypeCount) int { return cmp.Compare(b.Count, a.Count) })
	return out
}

// refusalView words a refused run's reason in lang.
func refusalView(lang string, runID uuid.UUID, reason string) bulkRefusalView {
	return bulkRefusalView{WorkflowRunID: runID, Reason: reason, Message: httpx.Message(lang, reason, models.KindConflict).Detail}
}

// runBulkPreview serves POST /api/v1/projects/{project_id}/runs/bulk-preview: what a bulk
// operation would do to the runs it selects, changing nothing.
func (s *Server) runBulkPreview(c *gin.Context) {
	var req bulkRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	sel, err := s.bulkSelection(c, req)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	p, err := s.Bulk.Preview(c, sel)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	view := bulkPreviewView{Operation: req.Operation, Total: len(sel.Runs), Acting: p.Acting,
		ActsAgain: byActionType(p.ActsAgain), Reused: byActionType(p.Reused), Refused: []bulkRefusalView{}}
	for _, r := range p.Refused {
		view.Refused = append(view.Refused, refusalView(httpx.Lang(c), r.RunID, r.Reason))
	}
	c.JSON(http.StatusOK, view)
}

// runBulk serves POST /api/v1/projects/{project_id}/runs/bulk: it starts the bulk
// operation, once per Idempotency-Key.
func (s *Server) runBulk(c *gin.Context) {
	var req bulkRequest
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	key, err := idempotencyKey("invalid_bulk_idempotency_key", true, keySource{field: "Idempotency-Key", value: c.GetHeader("Idempotency-Key")})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	sel, err := s.bulkSelection(c, req)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	p := project(c)
	op := &automation.BulkOperation{CompanyID: p.CompanyID, ProjectID: p.ID, Operation: req.Operation, Version: req.Version,
		IdempotencyKey: key.value, RequestHash: requestHash(req), CreatedBy: &actor(c).UserID}
	op, err = s.Bulk.Start(c, op, sel)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderBulkOperation(c, http.StatusAccepted, op)
}

// requestHash identifies a bulk request by what it asks, not by the runs its filter finds,
// which may have changed when it is sent again.
func requestHash(req bulkRequest) string {
	body, _ := json.Marshal(req) // maps marshal in key order
	return uuid.NewSHA1(uuid.Nil, body).String()
}

type bulkOperationView struct {
	BulkOperationID uuid.UUID     `json:"bulk_operation_id"`
	ProjectID       uuid.UUID     `json:"project_id"`
	Operation       string        `json:"operation"`
	Version         *string       `json:"version"`
	Status          string        `json:"status"`
	Total           int           `json:"total"`
	Done            int           `json:"done"`
	Failed          int           `json:"failed"`
	Refused         int           `json:"refused"`
	Skipped         int           `json:"skipped"`
	Runs            []bulkRunView `json:"runs"`
	CreatedAt       time.Time     `json:"created_at"`
	FinishedAt      *time.Time    `json:"finished_at"`
}

type bulkRunView struct {
	WorkflowRunID uuid.UUID  `json:"workflow_run_id"`
	Outcome       string     `json:"outcome"`
	Reason        *string    `json:"reason"`
	Message       *string    `json:"message"`
	ResultRunID   *uuid.UUID `json:"result_run_id"`
}

// viewBulkOperation is op with its counts, and its runs when withRuns.
func (s *Server) viewBulkOperation(c *gin.Context, op *automation.BulkOperation, withRuns bool) (bulkOperationView, error) {
	counts, err := s.Workflows.BulkCounts(c, op.ID)
	if err != nil {
		return bulkOperationView{}, err
	}
	v := bulkOperationView{BulkOperationID: op.ID, ProjectID: op.ProjectID, Operation: op.Operation, Status: op.Status,
		Total: counts.Total, Done: counts.Done, Failed: counts.Failed, Refused: counts.Refused, Skipped: counts.Skipped,
		CreatedAt: op.CreatedAt, FinishedAt: op.FinishedAt}
	if op.Version != "" {
		v.Version = &op.Version
	}
	if !withRuns {
		return v, nil
	}
	items, err := s.Workflows.BulkItems(c, op.ID)
	if err != nil {
		return bulkOperationView{}, err
	}
	v.Runs = make([]bulkRunView, len(items))
	for i, it := range items {
		v.Runs[i] = bulkRunView{WorkflowRunID: it.RunID, Outcome: it.Outcome, ResultRunID: it.ResultRunID}
		if it.Reason != "" {
			text := refusalView(httpx.Lang(c), it.RunID, it.Reason).Message
			v.Runs[i].Reason, v.Runs[i].Message = &it.Reason, &text
		}
	}
	return v, nil
}

func (s *Server) renderBulkOperation(c *gin.Context, status int, op *automation.BulkOperation) {
	v, err := s.viewBulkOperation(c, op, true)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(status, v)
}

// bulkOperationGet serves GET /api/v1/bulk-operations/{bulk_operation_id}.
func (s *Server) bulkOperationGet(c *gin.Context) {
	s.renderBulkOperation(c, http.StatusOK, bulkOperation(c))
}

// bulkOperationCancel serves POST /api/v1/bulk-operations/{bulk_operation_id}/cancel: the
// runs it has not begun are skipped; those it began finish what they began.
func (s *Server) bulkOperationCancel(c *gin.Context) {
	op := bulkOperation(c)
	if err := s.Workflows.CancelBulkOperation(c, op); err != nil {
		httpx.WriteError(c, err)
		return
	}
	s.renderBulkOperation(c, http.StatusOK, op)
}

// bulkOperationList serves GET /api/v1/projects/{project_id}/bulk-operations: the
// project's bulk operations in the order asked, with their counts.
func (s *Server) bulkOperationList(c *gin.Context) {
	p := project(c)
	servePage(c, func(page models.PageRequest) ([]automation.BulkOperation, string, error) {
		return s.Workflows.BulkOperations(c, p.ID, page)
	}, func(rows []automation.BulkOperation) ([]bulkOperationView, error) {
		out := make([]bulkOperationView, len(rows))
		for i := range rows {
			v, err := s.viewBulkOperation(c, &rows[i], false)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	})
}
