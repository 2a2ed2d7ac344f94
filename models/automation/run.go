package automation

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/schemas"
)

// RunStatus is a run's state (the specification's WebhookRunReceipt.status).
type RunStatus string

const (
	RunPending   RunStatus = "pending"
	RunRunning   RunStatus = "running"
	RunWaiting   RunStatus = "waiting"
	RunSucceeded RunStatus = "succeeded"
	RunFailed    RunStatus = "failed"
	RunCancelled RunStatus = "cancelled"
)

// ActionStatus is an action run's state (the specification's WebhookActionReceipt.status).
type ActionStatus string

const (
	ActionPending   ActionStatus = "pending"
	ActionRunning   ActionStatus = "running"
	ActionSucceeded ActionStatus = "succeeded"
	ActionFailed    ActionStatus = "failed"
	ActionSkipped   ActionStatus = "skipped"
	ActionWaiting   ActionStatus = "waiting"
	ActionRetrying  ActionStatus = "retrying"
	// ActionDeadLettered is a retryable failure whose attempts ran out.
	ActionDeadLettered ActionStatus = "dead_lettered"
	// ActionCancelled is an action the run's cancellation interrupted or never let start.
	// The receipt, whose statuses the specification lists, says failed or skipped instead.
	ActionCancelled ActionStatus = "cancelled"
)

// Run is the stored projection of one workflow run; its id is the Temporal workflow id.
type Run struct {
	ID                uuid.UUID `gorm:"primaryKey"`
	CompanyID         uuid.UUID
	ProjectID         uuid.UUID
	WorkflowID        uuid.UUID
	WorkflowVersionID *uuid.UUID
	Status            RunStatus
	TriggerType       string
	TriggerActionKey  string
	IsTest            bool
	Input             string
	// Namespaces are the trigger's template namespaces beyond its payload.
	Namespaces     string
	Graph          string
	ReplayOfRunID  *uuid.UUID
	TerminalReason string
	Error          string
	StartedBy      *uuid.UUID
	StartedAt      *time.Time
	FinishedAt     *time.Time
	// DispatchedAt is when the run was handed to Temporal, or to the request that hands it
	// over itself; nil while the run waits for intake.Dispatcher (the start intent of an
	// accepted webhook delivery).
	DispatchedAt *time.Time
	// TraceParent is the W3C traceparent of the request that queued the run, when tracing
	// was on: the dispatcher starts the run in that trace. Empty otherwise.
	TraceParent string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

func (Run) TableName() string { return "workflow_runs" }

// InputJSON decodes the run's trigger payload.
func (r *Run) InputJSON() map[string]any { return DecodeObject(r.Input) }

// NamespacesJSON decodes the trigger's extra template namespaces.
func (r *Run) NamespacesJSON() map[string]any { return DecodeObject(r.Namespaces) }

// GraphJSON decodes the graph the run executes.
func (r *Run) GraphJSON() Graph {
	var g Graph
	_ = json.Unmarshal([]byte(r.Graph), &g) // written by us from a valid Graph
	return g
}

// Terminal reports whether the run has finished.
func (r *Run) Terminal() bool {
	return r.Status == RunSucceeded || r.Status == RunFailed || r.Status == RunCancelled
}

// ActionRun is the projection of one action within a run.
type ActionRun struct {
	ID            uuid.UUID `gorm:"primaryKey"`
	RunID         uuid.UUID
	ActionKey     string
	ActionTypeKey string
	// ItemKey is the loop item whose body the action ran in (ItemKey), "" outside loops;
	// ActionKey is then scoped by it: lines[3].create_task.
	ItemKey         string
	Status          ActionStatus
	AttemptCount    int
	MaxAttempts     int
	SettledAttempts int
	// RetryCount is how many times retry-action ran the action again; RetriedAttempts the
	// attempts it had made before the latest of them. AttemptCount and MaxAttempts count
	// across retries; SeriesAttempts and SeriesMaxAttempts from the latest one.
	RetryCount      int
	RetriedAttempts int
	// SettledResult is the answer of the last settled attempt when it succeeded (JSON).
	SettledResult    string
	Input            string
	Output           string
	ProviderResponse string
	Error            *string
	RetryClass       string
	Diagnostics      string
	StartedAt        *time.Time
	FinishedAt       *time.Time
	UpdatedAt        time.Time
}

func (ActionRun) TableName() string { return "workflow_action_runs" }

// SeriesAttempts is the attempts since the action last started afresh: its run's start, or
// the latest retry-action.
func (a *ActionRun) SeriesAttempts() int { return a.AttemptCount - a.RetriedAttempts }

// SeriesMaxAttempts is how many attempts the current series may make, the action's policy's.
func (a *ActionRun) SeriesMaxAttempts() int { return a.MaxAttempts - a.RetriedAttempts }

// RunEvent is one entry of a run's event log, numbered from 1 in order.
type RunEvent struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	RunID     uuid.UUID
	Sequence  int
	EventType string
	ActionKey string
	Status    string
	Message   string
	Data      string
	CreatedAt time.Time
}

func (RunEvent) TableName() string { return "workflow_run_events" }

// Progress is one batch of projection writes from the interpreter.
type Progress struct {
	RunID uuid.UUID
	// Begin marks an execution's first batch: it is refused (ErrRunClosed) when the run has
	// already ended, as a run is that the engine refused (RefuseRun) although Temporal
	// started it.
	Begin   bool
	Run     *RunUpdate
	Actions []ActionUpdate
	Events  []EventRecord
	// Items are the starts and ends of loop items.
	Items []ItemUpdate
}

// RunUpdate changes the run row; empty fields are left alone except Status.
type RunUpdate struct {
	Status         RunStatus
	TerminalReason string
	Error          string
	StartedAt      *time.Time
	FinishedAt     *time.Time
	// FailedActionKey is the action whose failure fails the run, with its terminal update;
	// it is not a column: the run's end event carries it (RunEndEvent).
	FailedActionKey string
}

// ActionUpdate changes one action row; empty fields are left alone except Status. An
// action of a loop item's body names its item, and its row is created by its first update.
type ActionUpdate struct {
	ActionKey        string
	ItemKey          string
	ActionTypeKey    string
	Status           ActionStatus
	MaxAttempts      int
	Input            map[string]any
	Output           map[string]any
	ProviderResponse map[string]any
	Error            string
	RetryClass       string
	Diagnostics      map[string]any
	StartedAt        *time.Time
	FinishedAt       *time.Time
}

// EventRecord is one run event, numbered by the interpreter.
type EventRecord struct {
	Sequence  int
	Type      string
	ActionKey string
	Status    string
	Message   string
	Data      map[string]any
	At        time.Time
}

// CreateRun stores a new run, pending, with a pending row for each action of its graph,
// and records RunStarted; maxAttempts holds the attempts planned per activity action (1 for
// the others). Errors: internal.
func (s *Service) CreateRun(ctx context.Context, run *Run, maxAttempts map[string]int) error {
	run.CreatedAt = s.now()
	run.UpdatedAt = run.CreatedAt
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(run).Error; err != nil {
			return err
		}
		if err := storeTerms(tx, run, termInput, inputTerms(run.InputJSON())); err != nil {
			return err
		}
		// The actions of loop bodies get a row per item as the items run.
		for _, a := range run.GraphJSON().Scheduled().Actions {
			row := pendingActionRun(run.ID, a.ActionKey, a.ActionTypeKey, maxAttempts[a.ActionKey], run.CreatedAt)
			if err := tx.Create(&row).Error; err != nil {
				return err
			}
		}
		return models.RecordEvent(tx, run.CreatedAt, RunStarted{RunID: run.ID, TriggerType: run.TriggerType})
	})
	if err != nil {
		return models.Internal("create run: %w", err)
	}
	models.AnnounceEvents(ctx, s.Bus)
	s.notify(ctx, run.ID)
	return nil
}

// pendingActionRun is the row of an action before it runs.
func pendingActionRun(runID uuid.UUID, actionKey, actionTypeKey string, maxAttempts int, now time.Time) ActionRun {
	return ActionRun{
		ID: models.NewID(), RunID: runID, ActionKey: actionKey, ActionTypeKey: actionTypeKey,
		Status: ActionPending, MaxAttempts: max(maxAttempts, 1),
		Input: "{}", Output: "{}", ProviderResponse: "{}", Diagnostics: "{}", UpdatedAt: now,
	}
}

// Undispatched lists up to limit runs that wait for the dispatcher, oldest first.
// Errors: internal.
func (s *Service) Undispatched(ctx context.Context, limit int) ([]Run, error) {
	var runs []Run
	if err := s.DB.WithContext(ctx).Where("dispatched_at IS NULL").Order("created_at, id").Limit(limit).Find(&runs).Error; err != nil {
		return nil, models.Internal("list undispatched runs: %w", err)
	}
	return runs, nil
}

// MarkDispatched records that Temporal has the run. Errors: internal.
func (s *Service) MarkDispatched(ctx context.Context, runID uuid.UUID) error {
	err := s.DB.WithContext(ctx).Model(&Run{}).Where("id = ? AND dispatched_at IS NULL", runID).Update("dispatched_at", s.now()).Error
	if err != nil {
		return models.Internal("mark run %s dispatched: %w", runID, err)
	}
	return nil
}

// ReopenRun makes a finished run pending again, its outcome cleared, before it is handed to
// the engine once more (a start the engine refused, or retryKey's action retried, which
// begins a new series of attempts), and records RunStarted. Errors: internal.
func (s *Service) ReopenRun(ctx context.Context, r *Run, retryKey string) error {
	now := s.now()
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Model(&Run{}).Where("id = ?", r.ID).Updates(map[string]any{
			"status": RunPending, "terminal_reason": "", "error": "", "finished_at": nil, "updated_at": now,
		}).Error
		if err != nil {
			return err
		}
		if err := tx.Where("run_id = ? AND kind = ?", r.ID, termError).Delete(&RunTerm{}).Error; err != nil {
			return err
		}
		if retryKey != "" {
			// The interpreter allows the retried action its policy's attempts beyond those
			// made; the same sum is written here so the view never shows the old limit.
			err := tx.Model(&ActionRun{}).Where("run_id = ? AND action_key = ?", r.ID, retryKey).Updates(map[string]any{
				"retry_count":      gorm.Expr("retry_count + 1"),
				"retried_attempts": gorm.Expr("attempt_count"),
				"max_attempts":     gorm.Expr("attempt_count + max_attempts - retried_attempts"),
				"updated_at":       now,
			}).Error
			if err != nil {
				return err
			}
		}
		// Handed to the engine once more, the run starts and finishes again.
		return models.RecordEvent(tx, now, RunStarted{RunID: r.ID, TriggerType: r.TriggerType})
	})
	if err != nil {
		return models.Internal("reopen run %s: %w", r.ID, err)
	}
	r.Status, r.TerminalReason, r.Error, r.FinishedAt, r.UpdatedAt = RunPending, "", "", nil, now
	models.AnnounceEvents(ctx, s.Bus)
	s.notify(ctx, r.ID)
	return nil
}

// RefuseRun records that the engine did not take a run: it fails, reason saying why, and
// RunFinished is recorded unless it had finished already. Errors: internal.
func (s *Service) RefuseRun(ctx context.Context, runID uuid.UUID, reason string) error {
	now := s.now()
	finished := false
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) (err error) {
		if finished, err = recordFinish(tx, runID, &RunUpdate{Status: RunFailed, TerminalReason: reason, Error: reason}, now); err != nil {
			return err
		}
		return tx.Model(&Run{}).Where("id = ?", runID).Updates(map[string]any{
			"status": RunFailed, "terminal_reason": reason, "error": reason, "finished_at": now, "updated_at": now,
		}).Error
	})
	if err != nil {
		return models.Internal("record refused run %s: %w", runID, err)
	}
	if finished {
		models.AnnounceEvents(ctx, s.Bus)
	}
	s.notify(ctx, runID)
	return nil
}

// ErrRunClosed is ApplyProgress's answer to an execution that begins on a run that ended
// without starting (the engine refused it): the execution must not act.
var ErrRunClosed = errors.New("the run has already ended")

// ApplyProgress writes a batch of the interpreter's projection writes in one transaction.
// It is idempotent, since a replayed workflow task may write the same batch again: updates
// set absolute values, events are inserted once per sequence number, and RunFinished is
// recorded by the batch that first finishes the run. A Begin batch of
// a run that started and ended is such a replay, of a workflow task that wrote the run's
// end but died before Temporal recorded it: it writes nothing, and no later batch moves an
// ended run back to a status before its end (their action rows may show the steps again
// until the replay writes the end once more). Errors:
// ErrRunClosed (a Begin batch of a run that ended without starting), or the database's.
func (s *Service) ApplyProgress(ctx context.Context, p Progress) error {
	now := s.now()
	finished, replayed := false, false
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) (err error) {
		if p.Begin {
			var run Run
			if err := tx.Select("status", "started_at").Where("id = ?", p.RunID).Take(&run).Error; err != nil {
				return err
			}
			if run.Terminal() && run.StartedAt == nil {
				return ErrRunClosed
			}
			if replayed = run.Terminal(); replayed {
				return nil
			}
		}
		if p.Run != nil {
			if finished, err = recordFinish(tx, p.RunID, p.Run, now); err != nil {
				return err
			}
			update := tx.Model(&Run{}).Where("id = ?", p.RunID)
			if !(&Run{Status: p.Run.Status}).Terminal() {
				update = update.Where("status NOT IN ?", []RunStatus{RunSucceeded, RunFailed, RunCancelled})
			}
			if err := update.Updates(runChanges(p.Run, now)).Error; err != nil {
				return err
			}
			if finished && p.Run.Status == RunFailed {
				if err := storeErrorTerms(tx, p.RunID, p.Run.Error); err != nil {
					return err
				}
			}
		}
		for _, a := range p.Actions {
			if a.ItemKey != "" {
				if err := ensureItemAction(tx, p.RunID, a, now); err != nil {
					return err
				}
			}
			if err := tx.Model(&ActionRun{}).
				Where("run_id = ? AND action_key = ?", p.RunID, a.ActionKey).
				Updates(actionChanges(a, now)).Error; err != nil {
				return err
			}
		}
		for _, it := range p.Items {
			if err := applyItem(tx, p.RunID, it, now); err != nil {
				return err
			}
		}
		for _, e := range p.Events {
			data := e.Data
			if data == nil {
				data = map[string]any{}
			}
			row := RunEvent{
				ID: models.NewID(), RunID: p.RunID, Sequence: e.Sequence, EventType: e.Type, ActionKey: e.ActionKey,
				Status: e.Status, Message: e.Message, Data: marshal(data), CreatedAt: e.At.UTC(),
			}
			if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error; err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || replayed {
		return err
	}
	if finished {
		models.AnnounceEvents(ctx, s.Bus)
	}
	s.notify(ctx, p.RunID)
	return nil
}

// runChanges are the columns a RunUpdate sets.
func runChanges(u *RunUpdate, now time.Time) map[string]any {
	set := map[string]any{"status": u.Status, "updated_at": now}
	if u.TerminalReason != "" {
		set["terminal_reason"] = u.TerminalReason
	}
	if u.Error != "" {
		set["error"] = u.Error
	}
	if u.StartedAt != nil {
		// A run resumed by retry-action starts again but keeps the time it first started.
		set["started_at"] = gorm.Expr("COALESCE(started_at, ?)", u.StartedAt.UTC())
		set["finished_at"] = nil
	}
	if u.FinishedAt != nil {
		set["finished_at"] = u.FinishedAt.UTC()
	}
	return set
}

// actionChanges are the columns an ActionUpdate sets.
func actionChanges(a ActionUpdate, now time.Time) map[string]any {
	set := map[string]any{"status": a.Status, "updated_at": now}
	if a.MaxAttempts > 0 {
		set["max_attempts"] = a.MaxAttempts
	}
	if a.Input != nil {
		set["input"] = marshal(a.Input)
	}
	if a.Output != nil {
		set["output"] = marshal(a.Output)
	}
	if a.ProviderResponse != nil {
		set["provider_response"] = marshal(a.ProviderResponse)
	}
	if a.StartedAt != nil {
		// A new start (also of an action retried by retry-action) clears the outcome of
		// the previous one.
		set["started_at"] = a.StartedAt.UTC()
		set["finished_at"] = nil
		set["error"] = nil
		set["retry_class"] = ""
		set["diagnostics"] = "{}"
	}
	if a.Error != "" {
		set["error"] = a.Error
	}
	if a.RetryClass != "" {
		set["retry_class"] = a.RetryClass
	}
	if a.Diagnostics != nil {
		set["diagnostics"] = marshal(a.Diagnostics)
	}
	switch {
	case a.FinishedAt != nil && a.StartedAt == nil && a.Status == ActionSucceeded:
		// A run resumed by retry-action reports again the successes it reuses; they keep
		// the time they really finished.
		set["finished_at"] = gorm.Expr(
			"CASE WHEN status = ? AND finished_at IS NOT NULL THEN finished_at ELSE ? END",
			ActionSucceeded, a.FinishedAt.UTC(),
		)
	case a.FinishedAt != nil:
		set["finished_at"] = a.FinishedAt.UTC()
	}
	return set
}

// Attempts is what the projection recorded of an action's attempts.
type Attempts struct {
	// Begun counts the attempts that started; 0 before the first.
	Begun int
	// Settled counts the attempts that ended with an answer.
	Settled int
	// Result is the successful answer of the last settled attempt as JSON, "" when it failed.
	Result string
}

// ActionAttempts reads what the projection recorded of an action's attempts.
func (s *Service) ActionAttempts(ctx context.Context, runID uuid.UUID, actionKey string) (Attempts, error) {
	var row ActionRun
	err := s.DB.WithContext(ctx).Select("attempt_count", "settled_attempts", "settled_result").
		Take(&row, "run_id = ? AND action_key = ?", runID, actionKey).Error
	if err != nil {
		return Attempts{}, models.Internal("read attempts of %s: %w", actionKey, err)
	}
	return Attempts{Begun: row.AttemptCount, Settled: row.SettledAttempts, Result: row.SettledResult}, nil
}

// BeginAttempt notes that an action's activity started an attempt; attempts after the
// first mark the action retrying.
func (s *Service) BeginAttempt(ctx context.Context, runID uuid.UUID, actionKey string, attempt int) error {
	status := ActionRunning
	if attempt > 1 {
		status = ActionRetrying
	}
	err := s.DB.WithContext(ctx).Model(&ActionRun{}).Where("run_id = ? AND action_key = ? AND attempt_count < ?", runID, actionKey, attempt).
		Updates(map[string]any{"attempt_count": attempt, "status": status, "updated_at": s.now()}).Error
	if err == nil {
		s.notify(ctx, runID)
	}
	return err
}

// SettleAttempt notes that an attempt ended with an answer, so its outcome is known: a
// success with its result as JSON, or a classified failure (result ""). It is one write, so
// the count and the answer never disagree.
func (s *Service) SettleAttempt(ctx context.Context, runID uuid.UUID, actionKey string, attempt int, result string) error {
	return s.DB.WithContext(ctx).
		Model(&ActionRun{}).
		Where("run_id = ? AND action_key = ? AND settled_attempts < ?", runID, actionKey, attempt).
		Updates(map[string]any{"settled_attempts": attempt, "settled_result": result}).Error
}

// LastEventSequence is the sequence number of a run's last event, 0 before the first.
func (s *Service) LastEventSequence(ctx context.Context, runID uuid.UUID) (int, error) {
	var last int
	if err := s.DB.WithContext(ctx).Model(&RunEvent{}).Where("run_id = ?", runID).
		Select("COALESCE(MAX(sequence), 0)").Scan(&last).Error; err != nil {
		return 0, models.Internal("read last event of run %s: %w", runID, err)
	}
	return last, nil
}

// LastTriggerRun is the newest run a workflow's trigger action started by triggerType,
// nil when there is none.
func (s *Service) LastTriggerRun(ctx context.Context, workflowID uuid.UUID, actionKey, triggerType string) (*Run, error) {
	var last []Run
	err := s.DB.WithContext(ctx).Where("workflow_id = ? AND trigger_action_key = ? AND trigger_type = ?", workflowID, actionKey, triggerType).
		Order("id DESC").Limit(1).Find(&last).Error
	if err != nil {
		return nil, models.Internal("read last run of trigger %s: %w", actionKey, err)
	}
	if len(last) == 0 {
		return nil, nil
	}
	return &last[0], nil
}

// DecodeObject decodes a JSON object column we wrote; an unreadable one reads as empty.
func DecodeObject(s string) map[string]any {
	out := map[string]any{}
	_ = json.Unmarshal([]byte(s), &out) // columns we wrote from maps
	return out
}

// RunAccess returns a run and the caller's standing in its company. Errors: not_found.
func (s *Service) RunAccess(ctx context.Context, userID, id uuid.UUID) (*Run, *company.Access, error) {
	return company.LoadOwned(ctx, s.Company, userID, id, "run_not_found", func(r *Run) uuid.UUID { return r.CompanyID })
}

// Run reads a run. Errors: not_found.
func (s *Service) Run(ctx context.Context, id uuid.UUID) (*Run, error) {
	var r Run
	err := s.DB.WithContext(ctx).Take(&r, "id = ?", id).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("run_not_found")
	}
	if err != nil {
		return nil, models.Internal("read run: %w", err)
	}
	return &r, nil
}

// RunStatuses are the values a run list may filter by.
var RunStatuses = []RunStatus{RunPending, RunRunning, RunWaiting, RunSucceeded, RunFailed, RunCancelled}

// RunFilter narrows a list of runs; zero fields do not narrow it.
type RunFilter struct {
	Status            RunStatus
	TriggerType       string
	WorkflowVersionID *uuid.UUID
	// CreatedFrom and CreatedTo bound created_at, both inclusive.
	CreatedFrom, CreatedTo *time.Time
	// Q is the words a run must carry (run_search.go).
	Q string
	// FailedActionKey and RetryClass keep the runs with an action (outside loops) of that
	// key, or of that retry class, that failed or was dead-lettered.
	FailedActionKey, RetryClass string
}

// apply narrows q, whose runs table is workflow_runs, to the filter's runs of the project,
// and answers the column its page is ordered by. Errors: invalid (status, q).
func (f RunFilter) apply(q *gorm.DB, projectID uuid.UUID) (*gorm.DB, string, error) {
	words, err := searchWords(f.Q)
	if err != nil {
		return nil, "", err
	}
	q, order := search(q, projectID, words)
	if f.FailedActionKey != "" || f.RetryClass != "" {
		failed := q.Session(&gorm.Session{NewDB: true}).Model(&ActionRun{}).Select("1").
			Where("workflow_action_runs.run_id = workflow_runs.id AND item_key = '' AND workflow_action_runs.status IN ?",
				[]ActionStatus{ActionFailed, ActionDeadLettered})
		if f.FailedActionKey != "" {
			failed = failed.Where("action_key = ?", f.FailedActionKey)
		}
		if f.RetryClass != "" {
			failed = failed.Where("retry_class = ?", f.RetryClass)
		}
		q = q.Where("EXISTS (?)", failed)
	}
	if f.Status != "" {
		if !slices.Contains(RunStatuses, f.Status) {
			return nil, "", models.Invalid("invalid_status", "status")
		}
		q = q.Where("workflow_runs.status = ?", f.Status)
	}
	if f.TriggerType != "" {
		q = q.Where("workflow_runs.trigger_type = ?", f.TriggerType)
	}
	if f.WorkflowVersionID != nil {
		q = q.Where("workflow_runs.workflow_version_id = ?", *f.WorkflowVersionID)
	}
	if f.CreatedFrom != nil {
		q = q.Where("workflow_runs.created_at >= ?", f.CreatedFrom.UTC())
	}
	if f.CreatedTo != nil {
		q = q.Where("workflow_runs.created_at <= ?", f.CreatedTo.UTC())
	}
	return q, order, nil
}

// Runs lists a workflow's runs of the filter, oldest first or, as page says, newest first.
// Errors: invalid (status, q).
func (s *Service) Runs(ctx context.Context, w *Workflow, filter RunFilter, page models.PageRequest) ([]Run, string, error) {
	q, order, err := filter.apply(s.DB.WithContext(ctx).Model(&Run{}).Select("workflow_runs.*").Where("workflow_runs.workflow_id = ?", w.ID), w.ProjectID)
	if err != nil {
		return nil, "", err
	}
	var rows []Run
	if err := page.Apply(q, order).Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list runs: %w", err)
	}
	items, next := models.Page(page, rows, func(r Run) uuid.UUID { return r.ID })
	return items, next, nil
}

// ProjectRun is a run with the name of its workflow.
type ProjectRun struct {
	Run          `gorm:"embedded"`
	WorkflowName string
}

// ProjectRuns lists the runs of every workflow of a company's project, with their
// workflows' names, as Runs lists a workflow's. Errors: invalid (status, q).
func (s *Service) ProjectRuns(ctx context.Context, companyID, projectID uuid.UUID, filter RunFilter,
	page models.PageRequest) ([]ProjectRun, string, error) {
	q, order, err := filter.apply(s.DB.WithContext(ctx).Table("workflow_runs").
		Select("workflow_runs.*, workflows.name AS workflow_name").
		Joins("JOIN workflows ON workflows.id = workflow_runs.workflow_id").
		Where("workflow_runs.project_id = ? AND workflow_runs.company_id = ?", projectID, companyID), projectID)
	if err != nil {
		return nil, "", err
	}
	var rows []ProjectRun
	if err := page.Apply(q, order).Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list project runs: %w", err)
	}
	items, next := models.Page(page, rows, func(r ProjectRun) uuid.UUID { return r.ID })
	return items, next, nil
}

// ActionRuns lists a run's actions in graph order, those of loop items aside (LoopItem).
func (s *Service) ActionRuns(ctx context.Context, r *Run) ([]ActionRun, error) {
	var rows []ActionRun
	if err := s.DB.WithContext(ctx).Where("run_id = ? AND item_key = ''", r.ID).Find(&rows).Error; err != nil {
		return nil, models.Internal("list action runs: %w", err)
	}
	order := map[string]int{}
	for i, a := range r.GraphJSON().Actions {
		order[a.ActionKey] = i
	}
	slices.SortFunc(rows, func(a, b ActionRun) int { return order[a.ActionKey] - order[b.ActionKey] })
	return rows, nil
}

// Events lists a run's events after a sequence number, in order, at most limit.
func (s *Service) Events(ctx context.Context, runID uuid.UUID, after, limit int) ([]RunEvent, error) {
	var rows []RunEvent
	err := s.DB.WithContext(ctx).Where("run_id = ? AND sequence > ?", runID, after).Order("sequence").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, models.Internal("list run events: %w", err)
	}
	return rows, nil
}

// CheckTriggerInput holds a run's input to its trigger's input_schema_json, when the
// trigger's config has one; field names the input in the Problem (input, input_json).
// Errors: invalid (the input's fields that fail the schema).
func CheckTriggerInput(config, input map[string]any, field string) error {
	doc, ok := config["input_schema_json"].(map[string]any)
	if !ok {
		return nil
	}
	// The catalog holds input_schema_json to the meta-schema; one that still does not
	// compile (a $ref outside itself) checks nothing.
	schema, err := schemas.CompileJSONSchema(doc)
	if err != nil {
		return nil
	}
	if fields := schemas.InvalidFields(schema, input, field); len(fields) > 0 {
		return models.Invalid("invalid_run_input", fields...)
	}
	return nil
}
