package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/robfig/cron/v3"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"agencyhub/models"
	"agencyhub/models/automation"
)

// A schedule.trigger of a workflow's current version is a Temporal Schedule. At each planned
// time the schedule starts a small tick workflow, whose one activity starts the run the way
// every other trigger does (Runs.start: projection rows first, then the interpreter), after
// checking the current version still has the trigger enabled and its previous scheduled run
// has finished.
const (
	// ScheduleWorkflowName is the tick workflow a schedule starts at each planned time.
	ScheduleWorkflowName = "automation.schedule_tick"
	scheduleFireActivity = "schedule.fire"
	// scheduleCatchupWindow: a planned time Temporal missed (its server was down) is still
	// taken up to this late; older ones are dropped rather than started in a burst.
	scheduleCatchupWindow = time.Minute
	// scheduleTickTimeout drops a tick no worker took up in time; the schedule goes on with
	// its next planned time (a tick waiting for a worker holds the next ones back).
	scheduleTickTimeout = 10 * time.Minute
	// scheduleShape changes whenever the shape of the schedules we write changes, so the
	// next sync rewrites schedules written by an older binary.
	scheduleShape = 1
	// scheduleMemoKey holds, in the tick action's memo, what the schedule was written from.
	scheduleMemoKey = "trigger"
)

// scheduledStartTime is the search attribute Temporal gives every workflow a schedule starts:
// the planned (nominal) time, before any jitter.
var scheduledStartTime = temporal.NewSearchAttributeKeyTime("TemporalScheduledStartTime")

// ScheduleID is the Temporal Schedule of one schedule trigger of a workflow.
func ScheduleID(workflowID uuid.UUID, actionKey string) string {
	return "schedule-" + workflowID.String() + "-" + actionKey
}

// ScheduleTick is the input of the tick workflow.
type ScheduleTick struct {
	WorkflowID uuid.UUID
	ActionKey  string
}

// ScheduleFiring is one planned time of one schedule trigger.
type ScheduleFiring struct {
	WorkflowID  uuid.UUID
	ActionKey   string
	ScheduledAt time.Time
}

// Tick is the workflow a schedule starts: it hands the planned time to schedule.fire. It
// ends as soon as the run has started, so Temporal's overlap policy only keeps ticks apart;
// StartScheduled keeps the runs themselves from overlapping.
func Tick(ctx workflow.Context, in ScheduleTick) error {
	at, ok := workflow.GetTypedSearchAttributes(ctx).GetTime(scheduledStartTime)
	if !ok {
		at = workflow.Now(ctx) // not started by a schedule (a test, or a hand-made start)
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2,
			MaximumInterval: 30 * time.Second, MaximumAttempts: 5},
	})
	firing := ScheduleFiring{WorkflowID: in.WorkflowID, ActionKey: in.ActionKey, ScheduledAt: at.UTC()}
	return workflow.ExecuteActivity(ctx, scheduleFireActivity, firing).Get(ctx, nil)
}

// registerSchedules registers the tick workflow and its activity on a worker of the runs'
// task queue.
func registerSchedules(w worker.Worker, runs *Runs) {
	w.RegisterWorkflowWithOptions(Tick, workflow.RegisterOptions{Name: ScheduleWorkflowName})
	w.RegisterActivityWithOptions(runs.fire, activity.RegisterOptions{Name: scheduleFireActivity})
}

// fire is the schedule.fire activity. A firing that starts nothing is logged with the reason;
// one the version itself refuses (a send naming a template the project no longer has) is
// not retried, since trying again cannot help.
func (s *Runs) fire(ctx context.Context, f ScheduleFiring) error {
	run, skipped, err := s.StartScheduled(ctx, f)
	if models.IsKind(err, models.KindInvalid) {
		activity.GetLogger(ctx).Warn("scheduled run refused", "workflow_id", f.WorkflowID, "action_key", f.ActionKey,
			"scheduled_at", f.ScheduledAt.Format(time.RFC3339), "err", err)
		return temporal.NewNonRetryableApplicationError("the scheduled run was refused", "invalid", err)
	}
	if err != nil {
		return err
	}
	if run == nil {
		activity.GetLogger(ctx).Info("scheduled run skipped", "workflow_id", f.WorkflowID, "action_key", f.ActionKey,
			"scheduled_at", f.ScheduledAt.Format(time.RFC3339), "reason", skipped)
	}
	return nil
}

// StartScheduled starts the run of one planned time of a schedule trigger from the
// workflow's current version, with the planned time (RFC 3339, UTC) as
// {{ <schedule_key>.scheduled_at }} and {{ schedule.scheduled_at }}. It starts nothing and
// answers why when the workflow is not published, the current version lacks the trigger or
// disables it, or the trigger's previous scheduled run has not finished (overlapping runs are
// skipped). A planned time that already has its run (the activity was retried) answers that
// run. Errors: internal, unavailable.
func (s *Runs) StartScheduled(ctx context.Context, f ScheduleFiring) (run *automation.Run, skipped string, err error) {
	var w automation.Workflow
	err = s.DB.WithContext(ctx).Take(&w, "id = ?", f.WorkflowID).Error
	if models.IsNotFound(err) {
		return nil, "the workflow no longer exists", nil
	}
	if err != nil {
		return nil, "", models.Internal("read scheduled workflow: %w", err)
	}
	if w.CurrentVersionID == nil {
		return nil, "the workflow is not published", nil
	}
	v, err := s.Workflows.CurrentVersion(ctx, &w)
	if err != nil {
		return nil, "", err
	}
	g := v.Graph()
	a, ok := g.Action(f.ActionKey)
	if !ok || a.ActionTypeKey != automation.TypeSchedule {
		return nil, "the current version has no schedule trigger " + f.ActionKey, nil
	}
	trigger := s.scheduleTrigger(a)
	if !trigger.Enabled {
		return nil, "the schedule trigger is disabled (enabled: false)", nil
	}
	at := f.ScheduledAt.UTC().Format(time.RFC3339)
	var last []automation.Run
	err = s.DB.WithContext(ctx).Where("workflow_id = ? AND trigger_action_key = ? AND trigger_type = ?", w.ID, a.ActionKey, TriggerSchedule).
		Order("id DESC").Limit(1).Find(&last).Error
	if err != nil {
		return nil, "", models.Internal("read last scheduled run: %w", err)
	}
	if len(last) == 1 {
		if last[0].InputJSON()["scheduled_at"] == at {
			return &last[0], "", nil
		}
		if !last[0].Terminal() {
			return nil, fmt.Sprintf("the previous scheduled run %s has not finished; overlapping runs are skipped", last[0].ID), nil
		}
	}
	payload := map[string]any{"scheduled_at": at}
	run, err = s.start(ctx, Start{Workflow: &w, Version: v, Graph: g, TriggerType: TriggerSchedule, TriggerKey: a.ActionKey,
		Payload: payload, Namespaces: map[string]any{trigger.Key: payload, "schedule": payload}})
	return run, "", err
}

// scheduleTrigger is a schedule.trigger's config, defaults applied.
type scheduleTrigger struct {
	Key      string // schedule_key
	Enabled  bool
	Every    time.Duration // or Cron
	Cron     string
	TimeZone string
}

func (s *Runs) scheduleTrigger(a automation.Action) scheduleTrigger {
	config := a.Config
	if t, ok := s.Catalog.Action(automation.TypeSchedule); ok {
		config = t.ApplyDefaults(config)
	}
	str := func(field string) string { v, _ := config[field].(string); return strings.TrimSpace(v) }
	enabled, ok := config["enabled"].(bool)
	t := scheduleTrigger{Key: str("schedule_key"), Enabled: enabled || !ok, Cron: str("cron"), TimeZone: str("timezone")}
	if t.Cron == "" {
		t.Every = time.Duration(toInt(config["interval_seconds"])) * time.Second
	}
	if t.TimeZone == "" {
		t.TimeZone = "UTC"
	}
	return t
}

// cronParser reads the standard five fields (minute hour day-of-month month day-of-week)
// and the @yearly … @hourly descriptors.
var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// CheckCron accepts a cron expression only when the standard cron parser and Temporal read
// it alike: five fields or a descriptor, the time zone given apart (timezone), no "?"
// and no interval descriptor (@every; interval_seconds says that). Day of month and day of
// week may not both be restricted: classic cron starts on either, Temporal only on both.
func CheckCron(expr string) error {
	expr = strings.TrimSpace(expr)
	switch {
	case strings.HasPrefix(expr, "TZ=") || strings.HasPrefix(expr, "CRON_TZ="):
		return errors.New("the time zone belongs in timezone, not in the expression")
	case strings.HasPrefix(expr, "@every"):
		return errors.New("@every is not supported; use interval_seconds")
	case strings.ContainsAny(expr, "?#"):
		return errors.New(`"?" and "#" are not supported; use "*"`)
	}
	if _, err := cronParser.Parse(expr); err != nil {
		return err
	}
	if f := strings.Fields(expr); len(f) == 5 && f[2] != "*" && f[4] != "*" {
		return errors.New("day of month and day of week may not both be restricted")
	}
	return nil
}

// checkSchedules refuses a graph with a cron expression the schedules cannot run, naming
// each one (actions.<key>.config.cron).
func checkSchedules(g automation.Graph) error {
	var fields []string
	for _, a := range g.Actions {
		if expr, _ := a.Config["cron"].(string); a.ActionTypeKey == automation.TypeSchedule && expr != "" && CheckCron(expr) != nil {
			fields = append(fields, "actions."+a.ActionKey+".config.cron")
		}
	}
	if len(fields) > 0 {
		return models.Invalid("invalid_cron", fields...)
	}
	return nil
}

// Publish freezes the draft as the next version (automation.Service.Publish) and brings the
// workflow's schedules in line with it. Errors: invalid (the draft's problems, a cron
// expression schedules cannot run), conflict, unavailable (the version is published but
// its schedules could not be updated; publishing or restoring again repairs them).
func (s *Runs) Publish(ctx context.Context, w *automation.Workflow, userID uuid.UUID, description *string) (*automation.Version, error) {
	d := w.Draft()
	if err := automation.RequireValid(automation.Validate(d.Graph, s.Catalog)); err != nil {
		return nil, err
	}
	if err := checkSchedules(d.Graph); err != nil {
		return nil, err
	}
	v, err := s.Workflows.Publish(ctx, w, userID, description)
	if err != nil {
		return nil, err
	}
	return v, s.SyncSchedules(ctx, w)
}

// Restore makes a version current again (automation.Service.Restore) and brings the
// workflow's schedules in line with it. Errors: not_found, invalid (a cron expression
// schedules cannot run), unavailable (restored, but the schedules could not be updated).
func (s *Runs) Restore(ctx context.Context, w *automation.Workflow, versionID uuid.UUID) (*automation.Workflow, error) {
	v, err := s.Workflows.Version(ctx, w, versionID)
	if err != nil {
		return nil, err
	}
	if err := checkSchedules(v.Graph()); err != nil {
		return nil, err
	}
	restored, err := s.Workflows.Restore(ctx, w, versionID)
	if err != nil {
		return nil, err
	}
	return restored, s.SyncSchedules(ctx, w)
}

// SyncSchedules makes the workflow's Temporal Schedules match the schedule triggers of its
// current version, as stored now: it creates the missing ones, rewrites those whose trigger
// changed (interval, cron, time zone, task queue), pauses disabled ones and resumes enabled
// ones, and deletes those whose trigger the current version lacks. Schedules are found by
// their ids, derived from every schedule trigger any version of the workflow had, so no
// listing is needed. Running it again changes nothing. Errors: invalid (a cron expression
// schedules cannot run), internal, unavailable.
func (s *Runs) SyncSchedules(ctx context.Context, w *automation.Workflow) error {
	var fresh automation.Workflow
	if err := s.DB.WithContext(ctx).Take(&fresh, "id = ?", w.ID).Error; err != nil {
		return models.Internal("read workflow %s: %w", w.ID, err)
	}
	var current automation.Graph
	if fresh.CurrentVersionID != nil {
		v, err := s.Workflows.CurrentVersion(ctx, &fresh)
		if err != nil {
			return err
		}
		current = v.Graph()
	}
	if err := checkSchedules(current); err != nil {
		return err
	}
	want := map[string]scheduleTrigger{}
	for _, a := range current.Actions {
		if a.ActionTypeKey == automation.TypeSchedule {
			want[a.ActionKey] = s.scheduleTrigger(a)
		}
	}
	keys, err := s.scheduleKeysEver(ctx, fresh.ID)
	if err != nil {
		return err
	}
	for key := range want {
		keys[key] = true
	}
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(keys)) {
		id := ScheduleID(fresh.ID, key)
		if t, ok := want[key]; ok {
			err = s.putSchedule(ctx, id, ScheduleTick{WorkflowID: fresh.ID, ActionKey: key}, t)
		} else {
			err = s.deleteSchedule(ctx, id)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("schedule %s: %w", id, err))
		}
	}
	if len(errs) > 0 {
		return &models.Error{Kind: models.KindUnavailable, Key: "schedules_unavailable", Err: errors.Join(errs...)}
	}
	return nil
}

// scheduleKeysEver are the action keys of the schedule triggers of every version of a
// workflow: the only schedules of the workflow that can exist.
func (s *Runs) scheduleKeysEver(ctx context.Context, workflowID uuid.UUID) (map[string]bool, error) {
	var columns []string
	if err := s.DB.WithContext(ctx).Model(&automation.Version{}).Where("workflow_id = ?", workflowID).
		Pluck("actions", &columns).Error; err != nil {
		return nil, models.Internal("read versions of workflow %s: %w", workflowID, err)
	}
	keys := map[string]bool{}
	for _, column := range columns {
		var actions []automation.Action
		_ = json.Unmarshal([]byte(column), &actions) // written by us from a Graph
		for _, a := range actions {
			if a.ActionTypeKey == automation.TypeSchedule {
				keys[a.ActionKey] = true
			}
		}
	}
	return keys, nil
}

// scheduleSource is what a schedule is written from; kept in the tick action's memo, it
// tells whether an existing schedule needs rewriting.
type scheduleSource struct {
	Shape        int    `json:"shape"`
	TaskQueue    string `json:"task_queue"`
	EverySeconds int    `json:"every_seconds,omitempty"`
	Cron         string `json:"cron,omitempty"`
	TimeZone     string `json:"timezone"`
}

// schedule is the Temporal Schedule of one trigger: its tick action, its times and its state.
type schedule struct {
	action *client.ScheduleWorkflowAction
	spec   client.ScheduleSpec
	paused bool
	note   string
	source string
}

func (s *Runs) schedule(id string, tick ScheduleTick, t scheduleTrigger) schedule {
	src := scheduleSource{Shape: scheduleShape, TaskQueue: s.TaskQueue, Cron: t.Cron, TimeZone: t.TimeZone}
	spec := client.ScheduleSpec{TimeZoneName: t.TimeZone}
	if t.Cron != "" {
		spec.CronExpressions = []string{t.Cron}
	} else {
		src.EverySeconds = int(t.Every / time.Second)
		spec.Intervals = []client.ScheduleIntervalSpec{{Every: t.Every}}
	}
	out := schedule{spec: spec, paused: !t.Enabled, source: mustJSON(src)}
	out.action = &client.ScheduleWorkflowAction{
		ID: id, Workflow: ScheduleWorkflowName, Args: []any{tick}, TaskQueue: s.TaskQueue,
		WorkflowExecutionTimeout: scheduleTickTimeout, Memo: map[string]any{scheduleMemoKey: out.source},
	}
	if out.paused {
		out.note = "the schedule trigger is disabled (enabled: false) in the workflow's current version"
	}
	return out
}

// matches reports whether an existing schedule already is this one.
func (sc schedule) matches(d client.ScheduleDescription) bool {
	action, ok := d.Schedule.Action.(*client.ScheduleWorkflowAction)
	if !ok || d.Schedule.State == nil || d.Schedule.State.Paused != sc.paused {
		return false
	}
	p, ok := action.Memo[scheduleMemoKey].(*commonpb.Payload)
	var source string
	return ok && converter.GetDefaultDataConverter().FromPayload(p, &source) == nil && source == sc.source
}

// putSchedule creates the schedule, or rewrites it when it differs.
func (s *Runs) putSchedule(ctx context.Context, id string, tick ScheduleTick, t scheduleTrigger) error {
	want := s.schedule(id, tick, t)
	handle := s.Client.ScheduleClient().GetHandle(ctx, id)
	update := func() error {
		return handle.Update(ctx, client.ScheduleUpdateOptions{DoUpdate: func(in client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
			if want.matches(in.Description) {
				return nil, temporal.ErrSkipScheduleUpdate
			}
			return &client.ScheduleUpdate{Schedule: &client.Schedule{
				Action: want.action, Spec: &want.spec,
				Policy: &client.SchedulePolicies{Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP, CatchupWindow: scheduleCatchupWindow},
				State:  &client.ScheduleState{Paused: want.paused, Note: want.note},
			}}, nil
		}})
	}
	err := update()
	if !isNotFound(err) {
		return err
	}
	_, err = s.Client.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID: id, Spec: want.spec, Action: want.action,
		Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP, CatchupWindow: scheduleCatchupWindow,
		Paused: want.paused, Note: want.note,
	})
	if errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		return update() // created concurrently: make it this one
	}
	return err
}

func (s *Runs) deleteSchedule(ctx context.Context, id string) error {
	if err := s.Client.ScheduleClient().GetHandle(ctx, id).Delete(ctx); !isNotFound(err) {
		return err
	}
	return nil
}

func isNotFound(err error) bool {
	var nf *serviceerror.NotFound
	return errors.As(err, &nf)
}
