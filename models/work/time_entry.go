package work

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// TimeEntry is time a user booked on a task: by hand, or by a timer that stopped (TimerID).
// The task's project and client are copied in so reports group by them as they were.
type TimeEntry struct {
	ID              uuid.UUID `gorm:"primaryKey"`
	CompanyID       uuid.UUID
	UserID          uuid.UUID
	TaskID          uuid.UUID
	ProjectID       *uuid.UUID
	ClientID        *uuid.UUID
	TimerID         *uuid.UUID
	WorkDate        models.Date
	DurationSeconds int64
	Note            string
	CreatedAt       time.Time
}

func (TimeEntry) TableName() string { return "work_time_entries" }

// TimeInput books time by hand: Date "" is today.
type TimeInput struct {
	TaskID          uuid.UUID
	DurationSeconds int64
	WorkDate        *models.Date
	Note            string
}

// maxEntrySeconds is a day: no entry books more.
const maxEntrySeconds = 24 * 60 * 60

// BookTime books the caller's time on a task of the company. Errors: not_found (task_id),
// forbidden, invalid (duration_seconds, work_date in the future, note).
func (s *Service) BookTime(ctx context.Context, a *Access, in TimeInput) (*TimeEntry, error) {
	db := s.DB.WithContext(ctx)
	t, err := loadIn[Task](db, a.CompanyID(), in.TaskID, "task_not_found")
	if err != nil {
		return nil, err
	}
	if err := a.requireWork(t.ProjectID); err != nil {
		return nil, err
	}
	date := s.today()
	if in.WorkDate != nil {
		date = *in.WorkDate
	}
	var bad invalidFields
	bad.require("duration_seconds", in.DurationSeconds >= 60 && in.DurationSeconds <= maxEntrySeconds)
	bad.require("work_date", date.Compare(s.today()) <= 0)
	bad.length("note", in.Note, 0, 2000)
	if err := bad.err("invalid_time_entry"); err != nil {
		return nil, err
	}
	e := entryFor(t, a.UserID, date, in.DurationSeconds, s.now())
	e.Note = strings.TrimSpace(in.Note)
	if err := db.Create(&e).Error; err != nil {
		return nil, models.Internal("book time: %w", err)
	}
	return &e, nil
}

func entryFor(t *Task, userID uuid.UUID, date models.Date, seconds int64, now time.Time) TimeEntry {
	return TimeEntry{ID: models.NewID(), CompanyID: t.CompanyID, UserID: userID, TaskID: t.ID, ProjectID: t.ProjectID, ClientID: t.ClientID,
		WorkDate: date, DurationSeconds: seconds, CreatedAt: now}
}

// TimeFilter narrows a time list; zero fields do not filter.
type TimeFilter struct {
	UserID, TaskID, ProjectID *uuid.UUID
	From, To                  *models.Date
}

// TimeEntries lists a page of the company's time entries. Only a manager sees other
// people's time: anyone else lists their own. Errors: forbidden (user_id of another user
// for a non-manager).
func (s *Service) TimeEntries(ctx context.Context, a *Access, f TimeFilter, page models.PageRequest) ([]TimeEntry, string, error) {
	if err := a.scopeToSelf(&f.UserID); err != nil {
		return nil, "", err
	}
	q := s.DB.WithContext(ctx).Where("company_id = ?", a.CompanyID())
	if f.UserID != nil {
		q = q.Where("user_id = ?", *f.UserID)
	}
	if f.TaskID != nil {
		q = q.Where("task_id = ?", *f.TaskID)
	}
	if f.ProjectID != nil {
		q = q.Where("project_id = ?", *f.ProjectID)
	}
	if f.From != nil {
		q = q.Where("work_date >= ?", *f.From)
	}
	if f.To != nil {
		q = q.Where("work_date <= ?", *f.To)
	}
	var rows []TimeEntry
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list time entries: %w", err)
	}
	rows, next := models.Page(page, rows, func(e TimeEntry) uuid.UUID { return e.ID })
	return rows, next, nil
}

// scopeToSelf narrows a filter's user to the caller unless they manage the tracker.
// Errors: forbidden (another user asked for by a non-manager).
func (a *Access) scopeToSelf(userID **uuid.UUID) error {
	if a.Manager() {
		return nil
	}
	if *userID != nil && **userID != a.UserID {
		return models.Forbidden("role_too_low")
	}
	*userID = &a.UserID
	return nil
}

// Timer is a running (StoppedAt nil) or stopped timer of a user on a task.
type Timer struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	CompanyID uuid.UUID
	UserID    uuid.UUID
	TaskID    uuid.UUID
	StartedAt time.Time
	StoppedAt *time.Time
}

func (Timer) TableName() string { return "work_timers" }

// TimerStart is what starting a timer did: the new timer, and the one it stopped with the
// time it booked (nil when none ran, or it ran less than a second).
type TimerStart struct {
	Timer   *Timer
	Stopped *Timer
	Booked  *TimeEntry
}

// timerAttempts bounds the retries of a start that lost a race to another start: each
// retry stops the timer that won.
const timerAttempts = 8

// StartTimer starts the caller's timer on a task, stopping and booking the one they had
// running (in any company). The database holds the rule: a unique index on the running
// timers of a user refuses a second one, so of racing starts each commits in turn, the
// later stopping the earlier, and a start that still collides is tried again.
// Errors: forbidden.
func (s *Service) StartTimer(ctx context.Context, a *Access, row *TaskRow) (*TimerStart, error) {
	if err := a.requireWork(row.ProjectID); err != nil {
		return nil, err
	}
	var out TimerStart
	var err error
	for range timerAttempts {
		out = TimerStart{}
		err = s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			now := s.now()
			stopped, booked, err := stopRunning(tx, a.UserID, now)
			if err != nil {
				return err
			}
			out.Stopped, out.Booked = stopped, booked
			out.Timer = &Timer{ID: models.NewID(), CompanyID: row.CompanyID, UserID: a.UserID, TaskID: row.ID, StartedAt: now}
			return tx.Create(out.Timer).Error
		})
		if !models.IsUniqueViolation(err) {
			break
		}
	}
	if err != nil {
		return nil, models.AsError(err)
	}
	return &out, nil
}

// StopTimer stops the caller's running timer and books its time. Errors: conflict (no
// timer runs in this company).
func (s *Service) StopTimer(ctx context.Context, a *Access) (*Timer, *TimeEntry, error) {
	var timer *Timer
	var booked *TimeEntry
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		running, err := runningTimer(tx, a.UserID)
		if err != nil {
			return err
		}
		if running == nil || running.CompanyID != a.CompanyID() {
			return models.Conflict("no_running_timer")
		}
		timer, booked, err = stopRunning(tx, a.UserID, s.now())
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return timer, booked, nil
}

// ActiveTimer is the caller's running timer in this company, nil when none.
// Errors: internal.
func (s *Service) ActiveTimer(ctx context.Context, a *Access) (*Timer, error) {
	t, err := runningTimer(s.DB.WithContext(ctx), a.UserID)
	if err != nil || t == nil || t.CompanyID != a.CompanyID() {
		return nil, err
	}
	return t, nil
}

func runningTimer(tx *gorm.DB, userID uuid.UUID) (*Timer, error) {
	var timers []Timer
	if err := tx.Where("user_id = ? AND stopped_at IS NULL", userID).Limit(1).Find(&timers).Error; err != nil {
		return nil, models.Internal("read running timer: %w", err)
	}
	if len(timers) == 0 {
		return nil, nil
	}
	return &timers[0], nil
}

// stopRunning stops the user's running timer, holding the user's row so starts and stops
// of one user wait for each other, and books its whole seconds on its task (once: the
// entry's timer_id is unique). It answers the stopped timer and the entry, nil for none.
func stopRunning(tx *gorm.DB, userID uuid.UUID, now time.Time) (*Timer, *TimeEntry, error) {
	if err := lockRow(tx, "users", userID); err != nil {
		return nil, nil, err
	}
	running, err := runningTimer(tx, userID)
	if err != nil || running == nil {
		return nil, nil, err
	}
	res := tx.Model(&Timer{}).Where("id = ? AND stopped_at IS NULL", running.ID).Update("stopped_at", now)
	if res.Error != nil {
		return nil, nil, models.Internal("stop timer: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return nil, nil, models.Internal("timer %s stopped by another request while its user was held", running.ID)
	}
	running.StoppedAt = &now
	seconds := int64(now.Sub(running.StartedAt) / time.Second)
	if seconds <= 0 {
		return running, nil, nil
	}
	var t Task
	if err := tx.Take(&t, "id = ?", running.TaskID).Error; err != nil {
		return nil, nil, models.Internal("read task of timer: %w", err)
	}
	e := entryFor(&t, userID, models.DateOf(running.StartedAt), seconds, now)
	e.TimerID = &running.ID
	if err := tx.Create(&e).Error; err != nil {
		return nil, nil, models.Internal("book timer: %w", err)
	}
	return running, &e, nil
}
