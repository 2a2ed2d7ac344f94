package work

import (
	"context"
	"slices"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// Report groupings.
var ReportGroups = []string{"user", "project", "client", "task"}

// reportKeys are, per grouping, the entry column grouped by and the name of the row it
// names.
var reportKeys = map[string]struct{ column, join, name string }{
	"user":    {"work_time_entries.user_id", "LEFT JOIN users g ON g.id = work_time_entries.user_id", "g.name"},
	"project": {"work_time_entries.project_id", "LEFT JOIN projects g ON g.id = work_time_entries.project_id", "g.name"},
	"client":  {"work_time_entries.client_id", "LEFT JOIN clients g ON g.id = work_time_entries.client_id", "g.name"},
	"task":    {"work_time_entries.task_id", "LEFT JOIN work_tasks g ON g.id = work_time_entries.task_id", "g.title"},
}

// ReportRow is the time booked under one user, project, client or task; ID is nil for the
// entries with no project or client.
type ReportRow struct {
	ID      *uuid.UUID
	Name    string
	Seconds int64
	Entries int
}

// Report is the time booked over a period, grouped.
type Report struct {
	From, To     models.Date
	GroupBy      string
	UserID       *uuid.UUID
	Rows         []ReportRow
	TotalSeconds int64
}

// maxReportDays bounds a report's period.
const maxReportDays = 366

// Report sums the company's time entries from `from` to `to` (default: this month up to
// today) grouped by user, project, client or task, largest first. A non-manager's report
// holds their own time only. Errors: invalid (group_by, from, to), forbidden (user_id).
func (s *Service) Report(ctx context.Context, a *Access, groupBy string, from, to *models.Date, userID *uuid.UUID) (*Report, error) {
	today := s.today()
	r := Report{GroupBy: groupBy, To: today, UserID: userID}
	if to != nil {
		r.To = *to
	}
	r.From = r.To.AddDays(1 - r.To.Day())
	if from != nil {
		r.From = *from
	}
	var bad invalidFields
	bad.require("group_by", slices.Contains(ReportGroups, groupBy))
	bad.require("to", r.From.Compare(r.To) <= 0 && r.From.AddDays(maxReportDays).Compare(r.To) > 0)
	if err := bad.err("invalid_report"); err != nil {
		return nil, err
	}
	if err := a.scopeToSelf(&r.UserID); err != nil {
		return nil, err
	}
	k := reportKeys[groupBy]
	q := s.DB.WithContext(ctx).Table("work_time_entries").
		Select(k.column+" AS id, MAX("+k.name+") AS name, SUM(work_time_entries.duration_seconds) AS seconds, COUNT(*) AS entries").
		Joins(k.join).
		Where("work_time_entries.company_id = ? AND work_time_entries.work_date BETWEEN ? AND ?", a.CompanyID(), r.From, r.To)
	if r.UserID != nil {
		q = q.Where("work_time_entries.user_id = ?", *r.UserID)
	}
	var rows []struct {
		ID      *uuid.UUID
		Name    *string
		Seconds int64
		Entries int
	}
	if err := q.Group(k.column).Order("seconds DESC, id").Scan(&rows).Error; err != nil {
		return nil, models.Internal("report time: %w", err)
	}
	for _, row := range rows {
		name := ""
		if row.Name != nil {
			name = *row.Name
		}
		r.Rows = append(r.Rows, ReportRow{ID: row.ID, Name: name, Seconds: row.Seconds, Entries: row.Entries})
		r.TotalSeconds += row.Seconds
	}
	return &r, nil
}

// Overview is the caller's day: their open tasks, the overdue ones and those due this
// week (at most overviewTasks of each, soonest due first), and their running timer.
type Overview struct {
	OpenCount, OverdueCount, DueThisWeekCount int
	Open, Overdue, DueThisWeek                []TaskRow
	Timer                                     *Timer
	Today, WeekEnd                            models.Date
}

const overviewTasks = 20

// Overview reads the caller's overview. Errors: internal.
func (s *Service) Overview(ctx context.Context, a *Access) (*Overview, error) {
	today := s.today()
	o := Overview{Today: today, WeekEnd: weekStart(today).AddDays(6)}
	mine := func() *gorm.DB {
		return taskRows(s.DB.WithContext(ctx)).Where(
			"work_tasks.company_id = ? AND work_tasks.assignee_id = ? AND work_tasks.completed_at IS NULL",
			a.CompanyID(), a.UserID,
		)
	}
	lists := []struct {
		count *int
		rows  *[]TaskRow
		where string
		args  []any
	}{
		{&o.OpenCount, &o.Open, "1 = 1", nil},
		{&o.OverdueCount, &o.Overdue, "work_tasks.due_date < ?", []any{today}},
		{&o.DueThisWeekCount, &o.DueThisWeek, "work_tasks.due_date BETWEEN ? AND ?", []any{today, o.WeekEnd}},
	}
	for _, l := range lists {
		var n int64
		if err := mine().Where(l.where, l.args...).Count(&n).Error; err != nil {
			return nil, models.Internal("count overview tasks: %w", err)
		}
		*l.count = int(n)
		err := mine().
			Where(l.where, l.args...).
			Order("CASE WHEN work_tasks.due_date IS NULL THEN 1 ELSE 0 END, work_tasks.due_date, work_tasks.id").
			Limit(overviewTasks).Scan(l.rows).Error
		if err != nil {
			return nil, models.Internal("read overview tasks: %w", err)
		}
	}
	timer, err := s.ActiveTimer(ctx, a)
	if err != nil {
		return nil, err
	}
	o.Timer = timer
	return &o, nil
}

// Elapsed is how long a timer has run at now.
func (t *Timer) Elapsed(now time.Time) time.Duration {
	if t.StoppedAt != nil {
		return t.StoppedAt.Sub(t.StartedAt)
	}
	return now.Sub(t.StartedAt)
}
