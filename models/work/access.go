package work

import (
	"context"
	"slices"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/models/company"
)

// Tracker roles follow from the company role: owners and admins manage the tracker,
// members execute tasks, viewers observe.
const (
	TrackerManager  = "manager"
	TrackerExecutor = "executor"
	TrackerObserver = "observer"
)

// Project roles a project membership grants on top of the company role: a lead manages the
// project's boards and members, a member works on its tasks (even as a company viewer).
const (
	ProjectLead   = "lead"
	ProjectMember = "member"
)

// ProjectRoles are the roles of a project membership.
var ProjectRoles = []string{ProjectLead, ProjectMember}

// TrackerRole is the tracker role of a company role.
func TrackerRole(r company.Role) string {
	switch {
	case r.Can(company.PermManage):
		return TrackerManager
	case r.Can(company.PermWork):
		return TrackerExecutor
	default:
		return TrackerObserver
	}
}

// Access is a caller's standing in the tracker of one company: the company role and the
// projects they are a member of.
type Access struct {
	company.Access
	UserID uuid.UUID
	// Projects maps the caller's projects to their project role.
	Projects map[uuid.UUID]string
}

// Access reads the caller's project memberships in the company a stands for.
// Errors: internal.
func (s *Service) Access(ctx context.Context, a *company.Access, userID uuid.UUID) (*Access, error) {
	var rows []ProjectMembership
	if err := s.DB.WithContext(ctx).Where("company_id = ? AND user_id = ?", a.Company.ID, userID).Find(&rows).Error; err != nil {
		return nil, models.Internal("read project memberships: %w", err)
	}
	out := &Access{Access: *a, UserID: userID, Projects: map[uuid.UUID]string{}}
	for _, m := range rows {
		out.Projects[m.ProjectID] = m.ProjectRole
	}
	return out, nil
}

// CompanyID is the company the access is in.
func (a *Access) CompanyID() uuid.UUID { return a.Company.ID }

// Manager reports whether the caller manages the whole tracker.
func (a *Access) Manager() bool { return a.Role.Can(company.PermManage) }

// CanWork reports whether the caller may create and change tasks of a project (nil: a
// board of no project): a company member or above, or a member or lead of the project.
func (a *Access) CanWork(projectID *uuid.UUID) bool {
	return a.Role.Can(company.PermWork) || (projectID != nil && a.Projects[*projectID] != "")
}

// CanManage reports whether the caller may create boards of a project and add its members:
// an owner or admin, or the project's lead.
func (a *Access) CanManage(projectID *uuid.UUID) bool {
	return a.Manager() || (projectID != nil && a.Projects[*projectID] == ProjectLead)
}

func (a *Access) requireWork(projectID *uuid.UUID) error {
	if !a.CanWork(projectID) {
		return models.Forbidden("role_too_low")
	}
	return nil
}

func (a *Access) requireManage(projectID *uuid.UUID) error {
	if !a.CanManage(projectID) {
		return models.Forbidden("role_too_low")
	}
	return nil
}

// ProjectMembership is a user's role in a project of the tracker.
type ProjectMembership struct {
	CompanyID   uuid.UUID
	ProjectID   uuid.UUID `gorm:"primaryKey"`
	UserID      uuid.UUID `gorm:"primaryKey"`
	ProjectRole string
	CreatedAt   time.Time
}

func (ProjectMembership) TableName() string { return "work_project_members" }

// AddProjectMember makes a company member a member of the project with a role, or changes
// the role of one who is; created tells which. Errors: forbidden (not a manager or the
// project's lead), invalid (user_id not a company member, project_role).
func (s *Service) AddProjectMember(ctx context.Context, a *Access, p *company.Project, userID uuid.UUID,
	role string) (m *ProjectMembership, created bool, err error) {
	if err := a.requireManage(&p.ID); err != nil {
		return nil, false, err
	}
	var bad invalidFields
	bad.require("project_role", slices.Contains(ProjectRoles, role))
	member, err := isMember(s.DB.WithContext(ctx), p.CompanyID, userID)
	if err != nil {
		return nil, false, err
	}
	bad.require("user_id", member)
	if err := bad.err("invalid_project_member"); err != nil {
		return nil, false, err
	}
	m = &ProjectMembership{CompanyID: p.CompanyID, ProjectID: p.ID, UserID: userID, ProjectRole: role, CreatedAt: s.now()}
	err = s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var existing ProjectMembership
		err := tx.Take(&existing, "project_id = ? AND user_id = ?", p.ID, userID).Error
		switch {
		case err == nil:
			m.CreatedAt = existing.CreatedAt
			return tx.Model(&existing).Where("project_id = ? AND user_id = ?", p.ID, userID).Update("project_role", role).Error
		case models.IsNotFound(err):
			created = true
			return tx.Clauses(clause.OnConflict{DoNothing: true}).Create(m).Error
		default:
			return err
		}
	})
	if err != nil {
		return nil, false, models.Internal("save project member: %w", err)
	}
	return m, created, nil
}

// Employee is a company member as the tracker sees them: their tracker role and load.
type Employee struct {
	UserID      uuid.UUID
	Email       string
	Name        string
	CompanyRole company.Role
	// OpenTasks are the tasks assigned to them and not completed; OverdueTasks those of
	// them due before today; WeekSeconds the time they booked since Monday.
	OpenTasks    int
	OverdueTasks int
	WeekSeconds  int64
}

// Employees lists a page of the company's members with their load. Errors: internal.
func (s *Service) Employees(ctx context.Context, a *Access, page models.PageRequest) ([]Employee, string, error) {
	db := s.DB.WithContext(ctx)
	var rows []Employee
	q := db.Table("company_members").
		Select("company_members.user_id, users.email, users.name, company_members.role AS company_role").
		Joins("JOIN users ON users.id = company_members.user_id").
		Where("company_members.company_id = ?", a.CompanyID())
	if err := page.Apply(q, "company_members.user_id").Scan(&rows).Error; err != nil {
		return nil, "", models.Internal("list employees: %w", err)
	}
	rows, next := models.Page(page, rows, func(e Employee) uuid.UUID { return e.UserID })
	if len(rows) == 0 {
		return rows, next, nil
	}
	ids := make([]uuid.UUID, len(rows))
	for i, e := range rows {
		ids[i] = e.UserID
	}
	today := s.today()
	var loads []struct {
		AssigneeID uuid.UUID
		Open       int
		Overdue    int
	}
	err := db.Table("work_tasks").
		Select("assignee_id, COUNT(*) AS open, SUM(CASE WHEN due_date < ? THEN 1 ELSE 0 END) AS overdue", today).
		Where("company_id = ? AND assignee_id IN ? AND completed_at IS NULL", a.CompanyID(), ids).
		Group("assignee_id").Scan(&loads).Error
	if err != nil {
		return nil, "", models.Internal("count employee tasks: %w", err)
	}
	var booked []struct {
		UserID  uuid.UUID
		Seconds int64
	}
	err = db.Table("work_time_entries").Select("user_id, SUM(duration_seconds) AS seconds").
		Where("company_id = ? AND user_id IN ? AND work_date >= ?", a.CompanyID(), ids, weekStart(today)).
		Group("user_id").Scan(&booked).Error
	if err != nil {
		return nil, "", models.Internal("sum employee time: %w", err)
	}
	for i := range rows {
		for _, l := range loads {
			if l.AssigneeID == rows[i].UserID {
				rows[i].OpenTasks, rows[i].OverdueTasks = l.Open, l.Overdue
			}
		}
		for _, b := range booked {
			if b.UserID == rows[i].UserID {
				rows[i].WeekSeconds = b.Seconds
			}
		}
	}
	return rows, next, nil
}

// weekStart is the Monday of d's week.
func weekStart(d models.Date) models.Date {
	t, _ := time.Parse(time.DateOnly, d.String())
	return d.AddDays(-((int(t.Weekday()) + 6) % 7))
}
