// Package schedules owns the engine's Temporal Schedules: those of workflows' schedule
// triggers, kept in line with each current version by the Publisher (publish, restore), with
// the cron checks and previews and the tick workflow the schedules start; and the daily
// billing cycle's schedule and workflow.
package schedules

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
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"agencyhub/engine"
	"agencyhub/models"
	"agencyhub/models/automation"
	"agencyhub/schemas"
)

// A schedule.trigger of a workflow's current version is a Temporal Schedule. At each planned
// time the schedule starts a small tick workflow, whose one activity hands the planned time
// to the trigger intake (Intake.StartScheduled), which starts the run the way every other
// trigger does after checking the current version still has the trigger enabled and its
// previous scheduled run has finished.
const (
	// ScheduleWorkflowName is the tick workflow a schedule starts at each planned time.
	ScheduleWorkflowName = "automation.schedule_tick"
	// ScheduleFireActivity is the tick's one activity (intake.Intake registers it).
	ScheduleFireActivity = "schedule.fire"
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

// ScheduleID is the Temporal Schedule of one schedule trigger of a workflow.
func ScheduleID(workflowID uuid.UUID, actionKey string) string {
	return "schedule-" + workflowID.String() + "-" + actionKey
}

// ScheduleTrigger is a schedule.trigger's config, defaults applied (ReadScheduleTrigger).
type ScheduleTrigger struct {
	Key      string // schedule_key
	Enabled  bool
	Every    time.Duration // or Cron
	Cron     string
	TimeZone string
}

// ReadScheduleTrigger reads a schedule.trigger's config, its defaults applied.
func ReadScheduleTrigger(catalog *schemas.Catalog, config map[string]any) ScheduleTrigger {
	if t, ok := catalog.Action(automation.TypeSchedule); ok {
		config = t.ApplyDefaults(config)
	}
	str := func(field string) string { v, _ := config[field].(string); return strings.TrimSpace(v) }
	enabled, ok := config["enabled"].(bool)
	t := ScheduleTrigger{Key: str("schedule_key"), Enabled: enabled || !ok, Cron: str("cron"), TimeZone: str("timezone")}
	if t.Cron == "" {
		t.Every = time.Duration(engine.ToInt(config["interval_seconds"])) * time.Second
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

// Schedules keeps the Temporal Schedules of workflows' schedule triggers in line with their
// current versions.
type Schedules struct {
	Client    client.Client
	Workflows *automation.Service
	Catalog   *schemas.Catalog
	// TaskQueue is where the schedules start their tick workflows.
	TaskQueue string
}

// Sync makes the workflow's Temporal Schedules match the schedule triggers of its
// current version, as stored now: it creates the missing ones, rewrites those whose trigger
// changed (interval, cron, time zone, task queue), pauses disabled ones (every one while
// the workflow is archived) and resumes enabled ones, and deletes those whose trigger the
// current version lacks. Schedules are found by their ids, derived from every schedule
// trigger any version of the workflow had, so no listing is needed. Running it again changes nothing. Errors: invalid (a cron expression
// schedules cannot run), internal, unavailable.
func (s *Schedules) Sync(ctx context.Context, w *automation.Workflow) error {
	fresh, err := s.Workflows.WorkflowOf(ctx, w.CompanyID, w.ID)
	if err != nil {
		return err
	}
	var current automation.Graph
	if fresh.CurrentVersionID != nil {
		v, err := s.Workflows.CurrentVersion(ctx, fresh)
		if err != nil {
			return err
		}
		current = v.Graph()
	}
	if err := checkSchedules(current); err != nil {
		return err
	}
	want := map[string]ScheduleTrigger{}
	for _, a := range current.Actions {
		if a.ActionTypeKey == automation.TypeSchedule {
			want[a.ActionKey] = ReadScheduleTrigger(s.Catalog, a.Config)
		}
	}
	keys, err := s.Workflows.ActionKeysEver(ctx, fresh.ID, automation.TypeSchedule)
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
			err = s.putSchedule(ctx, id, ScheduleTick{WorkflowID: fresh.ID, ActionKey: key}, t, fresh.ArchivedAt != nil)
		} else {
			err = s.deleteSchedule(ctx, id)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("schedule %s: %w", id, err))
		}
	}
	if len(errs) > 0 {
		return models.Unavailable("schedules_unavailable", errors.Join(errs...))
	}
	return nil
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

func (s *Schedules) schedule(id string, tick ScheduleTick, t ScheduleTrigger, archived bool) schedule {
	src := scheduleSource{Shape: scheduleShape, TaskQueue: s.TaskQueue, Cron: t.Cron, TimeZone: t.TimeZone}
	spec := client.ScheduleSpec{TimeZoneName: t.TimeZone}
	if t.Cron != "" {
		spec.CronExpressions = []string{t.Cron}
	} else {
		src.EverySeconds = int(t.Every / time.Second)
		spec.Intervals = []client.ScheduleIntervalSpec{{Every: t.Every}}
	}
	source, _ := json.Marshal(src) // strings and numbers: it always encodes
	out := schedule{spec: spec, paused: !t.Enabled || archived, source: string(source)}
	out.action = &client.ScheduleWorkflowAction{
		ID: id, Workflow: ScheduleWorkflowName, Args: []any{tick}, TaskQueue: s.TaskQueue,
		WorkflowExecutionTimeout: scheduleTickTimeout, Memo: map[string]any{scheduleMemoKey: out.source},
	}
	switch {
	case archived:
		out.note = "the workflow is archived"
	case out.paused:
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

// putSchedule creates the schedule, or rewrites it when it differs; a workflow's archived
// schedules are paused.
func (s *Schedules) putSchedule(ctx context.Context, id string, tick ScheduleTick, t ScheduleTrigger, archived bool) error {
	want := s.schedule(id, tick, t, archived)
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

func (s *Schedules) deleteSchedule(ctx context.Context, id string) error {
	if err := s.Client.ScheduleClient().GetHandle(ctx, id).Delete(ctx); !isNotFound(err) {
		return err
	}
	return nil
}

func isNotFound(err error) bool {
	var nf *serviceerror.NotFound
	return errors.As(err, &nf)
}
