package api

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/work"
)

// timeEntryView is time booked on a task.
type timeEntryView struct {
	TimeEntryID     uuid.UUID  `json:"time_entry_id"`
	UserID          uuid.UUID  `json:"user_id"`
	TaskID          uuid.UUID  `json:"task_id"`
	ProjectID       *uuid.UUID `json:"project_id,omitempty"`
	ClientID        *uuid.UUID `json:"client_id,omitempty"`
	TimerID         *uuid.UUID `json:"timer_id,omitempty"`
	WorkDate        string     `json:"work_date"`
	DurationSeconds int64      `json:"duration_seconds"`
	Note            string     `json:"note"`
	Source          string     `json:"source"`
	CreatedAt       time.Time  `json:"created_at"`
}

func viewTimeEntry(e work.TimeEntry) timeEntryView {
	source := "manual"
	if e.TimerID != nil {
		source = "timer"
	}
	return timeEntryView{
		TimeEntryID:     e.ID,
		UserID:          e.UserID,
		TaskID:          e.TaskID,
		ProjectID:       e.ProjectID,
		ClientID:        e.ClientID,
		TimerID:         e.TimerID,
		WorkDate:        e.WorkDate.String(),
		DurationSeconds: e.DurationSeconds,
		Note:            e.Note,
		Source:          source,
		CreatedAt:       e.CreatedAt,
	}
}

// workTimeList serves GET /api/v1/work/time.
func (s *Server) workTimeList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]work.TimeEntry, string, error) {
		var f work.TimeFilter
		var err error
		for name, dst := range map[string]**uuid.UUID{"user_id": &f.UserID, "task_id": &f.TaskID, "project_id": &f.ProjectID} {
			if *dst, err = queryID(c, name); err != nil {
				return nil, "", err
			}
		}
		if f.From, err = queryDate(c, "from"); err != nil {
			return nil, "", err
		}
		if f.To, err = queryDate(c, "to"); err != nil {
			return nil, "", err
		}
		return s.Work.TimeEntries(c, workAccess(c), f, page)
	}, each(viewTimeEntry))
}

// workTimeCreate serves POST /api/v1/work/time: the caller books time on a task by hand.
func (s *Server) workTimeCreate(c *gin.Context) {
	var req struct {
		TaskID          uuid.UUID    `json:"task_id"`
		DurationSeconds int64        `json:"duration_seconds"`
		WorkDate        *models.Date `json:"work_date"`
		Note            string       `json:"note"`
	}
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	e, err := s.Work.BookTime(c, workAccess(c), work.TimeInput{
		TaskID:          req.TaskID,
		DurationSeconds: req.DurationSeconds,
		WorkDate:        req.WorkDate,
		Note:            req.Note,
	})
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewTimeEntry(*e))
}

// timerView is a timer; elapsed_seconds is how long it ran until now or until it stopped.
type timerView struct {
	TimerID        uuid.UUID  `json:"timer_id"`
	TaskID         uuid.UUID  `json:"task_id"`
	UserID         uuid.UUID  `json:"user_id"`
	StartedAt      time.Time  `json:"started_at"`
	StoppedAt      *time.Time `json:"stopped_at,omitempty"`
	ElapsedSeconds int64      `json:"elapsed_seconds"`
}

func (s *Server) viewTimer(t *work.Timer) *timerView {
	if t == nil {
		return nil
	}
	return &timerView{TimerID: t.ID, TaskID: t.TaskID, UserID: t.UserID, StartedAt: t.StartedAt, StoppedAt: t.StoppedAt,
		ElapsedSeconds: int64(t.Elapsed(s.Now()) / time.Second)}
}

// timerChange is what a start or a stop did: the timer started (start), the timer stopped
// and the time it booked (absent when it ran under a second).
type timerChange struct {
	Timer        *timerView     `json:"timer"`
	StoppedTimer *timerView     `json:"stopped_timer,omitempty"`
	TimeEntry    *timeEntryView `json:"time_entry,omitempty"`
}

func entryView(e *work.TimeEntry) *timeEntryView {
	if e == nil {
		return nil
	}
	v := viewTimeEntry(*e)
	return &v
}

// workTaskTimerStart serves POST /api/v1/work/tasks/{task_id}/timer/start.
func (s *Server) workTaskTimerStart(c *gin.Context) {
	st, err := s.Work.StartTimer(c, workAccess(c), task(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, timerChange{
		Timer:        s.viewTimer(st.Timer),
		StoppedTimer: s.viewTimer(st.Stopped),
		TimeEntry:    entryView(st.Booked),
	})
}

// workTimerStop serves POST /api/v1/work/timer/stop.
func (s *Server) workTimerStop(c *gin.Context) {
	t, e, err := s.Work.StopTimer(c, workAccess(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, timerChange{Timer: s.viewTimer(t), TimeEntry: entryView(e)})
}

// workTimerActive serves GET /api/v1/work/timer/active: {"timer": null} when none runs.
func (s *Server) workTimerActive(c *gin.Context) {
	t, err := s.Work.ActiveTimer(c, workAccess(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"timer": s.viewTimer(t)})
}

// reportView is booked time over a period, grouped.
type reportView struct {
	From         string          `json:"from"`
	To           string          `json:"to"`
	GroupBy      string          `json:"group_by"`
	UserID       *uuid.UUID      `json:"user_id,omitempty"`
	Rows         []reportRowView `json:"rows"`
	TotalSeconds int64           `json:"total_seconds"`
	TotalHours   string          `json:"total_hours"`
}

type reportRowView struct {
	ID      *uuid.UUID `json:"id"`
	Name    string     `json:"name"`
	Seconds int64      `json:"seconds"`
	Hours   string     `json:"hours"`
	Entries int        `json:"entries"`
}

// hours writes seconds as hours with two decimals, rounded half up.
func hours(seconds int64) string {
	hundredths := (seconds*100 + 1800) / 3600
	return fmt.Sprintf("%d.%02d", hundredths/100, hundredths%100)
}

// workReports serves GET /api/v1/work/reports: JSON, or CSV with ?format=csv.
func (s *Server) workReports(c *gin.Context) {
	from, err := queryDate(c, "from")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	to, err := queryDate(c, "to")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	userID, err := queryID(c, "user_id")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	format := c.DefaultQuery("format", "json")
	if format != "json" && format != "csv" {
		httpx.WriteError(c, models.Invalid("invalid_report", "format"))
		return
	}
	r, err := s.Work.Report(c, workAccess(c), c.DefaultQuery("group_by", "user"), from, to, userID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	v := reportView{From: r.From.String(), To: r.To.String(), GroupBy: r.GroupBy, UserID: r.UserID, Rows: []reportRowView{},
		TotalSeconds: r.TotalSeconds, TotalHours: hours(r.TotalSeconds)}
	for _, row := range r.Rows {
		v.Rows = append(v.Rows, reportRowView{ID: row.ID, Name: row.Name, Seconds: row.Seconds, Hours: hours(row.Seconds), Entries: row.Entries})
	}
	if format == "json" {
		c.JSON(http.StatusOK, v)
		return
	}
	c.Header("Content-Type", "text/csv; charset=utf-8")
	c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="time-by-%s-%s-%s.csv"`, v.GroupBy, v.From, v.To))
	c.Status(http.StatusOK)
	w := csv.NewWriter(c.Writer)
	_ = w.Write([]string{v.GroupBy + "_id", "name", "hours", "seconds", "entries"})
	for _, row := range v.Rows {
		id := ""
		if row.ID != nil {
			id = row.ID.String()
		}
		_ = w.Write([]string{id, row.Name, row.Hours, fmt.Sprint(row.Seconds), fmt.Sprint(row.Entries)})
	}
	_ = w.Write([]string{"", "total", v.TotalHours, fmt.Sprint(v.TotalSeconds), ""})
	w.Flush()
}

// overviewView is the caller's day in the tracker.
type overviewView struct {
	Today            string     `json:"today"`
	WeekEnds         string     `json:"week_ends"`
	OpenCount        int        `json:"open_count"`
	OverdueCount     int        `json:"overdue_count"`
	DueThisWeekCount int        `json:"due_this_week_count"`
	Open             []taskView `json:"open"`
	Overdue          []taskView `json:"overdue"`
	DueThisWeek      []taskView `json:"due_this_week"`
	RunningTimer     *timerView `json:"running_timer"`
}

// workOverview serves GET /api/v1/work/overview.
func (s *Server) workOverview(c *gin.Context) {
	o, err := s.Work.Overview(c, workAccess(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	views := func(rows []work.TaskRow) []taskView { v, _ := each(viewTask)(rows); return v }
	c.JSON(http.StatusOK, overviewView{
		Today:            o.Today.String(),
		WeekEnds:         o.WeekEnd.String(),
		OpenCount:        o.OpenCount,
		OverdueCount:     o.OverdueCount,
		DueThisWeekCount: o.DueThisWeekCount,
		Open:             views(o.Open),
		Overdue:          views(o.Overdue),
		DueThisWeek:      views(o.DueThisWeek),
		RunningTimer:     s.viewTimer(o.Timer),
	})
}
