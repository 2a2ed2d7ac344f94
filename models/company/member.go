package company

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
)

// MemberView is a member with the account fields a member list shows.
type MemberView struct {
	UserID    uuid.UUID
	Email     string
	Name      string
	Role      Role
	CreatedAt time.Time
}

// memberViews selects the company's members as MemberView rows.
func memberViews(db *gorm.DB, companyID uuid.UUID) *gorm.DB {
	return db.Table("company_members").
		Select("company_members.user_id, users.email, users.name, company_members.role, company_members.created_at").
		Joins("JOIN users ON users.id = company_members.user_id").
		Where("company_members.company_id = ?", companyID)
}

// Members lists a company's members.
func (s *Service) Members(ctx context.Context, companyID uuid.UUID, page models.PageRequest) ([]MemberView, string, error) {
	var rows []MemberView
	if err := page.Apply(memberViews(s.DB.WithContext(ctx), companyID), "company_members.user_id").Scan(&rows).Error; err != nil {
		return nil, "", models.Internal("list members: %w", err)
	}
	items, next := models.Page(page, rows, func(m MemberView) uuid.UUID { return m.UserID })
	return items, next, nil
}

// checkGrant enforces who may hand out or take away a role: managers handle admin, member
// and viewer; only owners touch the owner role.
func checkGrant(a *Access, roles ...Role) error {
	for _, r := range roles {
		if r == RoleOwner && !a.Role.Can(PermOwn) {
			return models.Forbidden("owner_role_needs_owner")
		}
	}
	return nil
}

// AddMember adds an existing, active account to the company.
// Errors: invalid (email, role), forbidden, conflict (already a member).
func (s *Service) AddMember(ctx context.Context, a *Access, email string, role Role) (*MemberView, error) {
	if !role.Valid() {
		return nil, models.Invalid("invalid_role", "role")
	}
	if err := checkGrant(a, role); err != nil {
		return nil, err
	}
	var user struct {
		ID    uuid.UUID
		Email string
		Name  string
	}
	err := s.DB.WithContext(ctx).Table("users").Select("id, email, name").
		Where("email = ? AND status = ?", strings.ToLower(strings.TrimSpace(email)), "active").Take(&user).Error
	if models.IsNotFound(err) {
		return nil, models.Invalid("no_such_account", "email")
	}
	if err != nil {
		return nil, models.Internal("find account: %w", err)
	}
	m := Member{CompanyID: a.Company.ID, UserID: user.ID, Role: role, CreatedAt: s.now()}
	if err := s.DB.WithContext(ctx).Create(&m).Error; err != nil {
		if models.IsUniqueViolation(err) {
			return nil, models.Conflict("already_a_member", "email")
		}
		return nil, models.Internal("add member: %w", err)
	}
	return &MemberView{UserID: user.ID, Email: user.Email, Name: user.Name, Role: role, CreatedAt: m.CreatedAt}, nil
}

// member reads one membership of the company. Errors: not_found.
func member(tx *gorm.DB, companyID, userID uuid.UUID) (*Member, error) {
	var m Member
	err := tx.Take(&m, "company_id = ? AND user_id = ?", companyID, userID).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("member_not_found")
	}
	if err != nil {
		return nil, models.Internal("read member: %w", err)
	}
	return &m, nil
}

// lockCompany makes concurrent membership changes of one company wait for each other until
// tx ends, so two of them cannot each count the other's owner and together remove the last
// one. SQLite ignores the lock and needs none: its write transactions run one at a time.
func lockCompany(tx *gorm.DB, companyID uuid.UUID) error {
	var c Company
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Select("id").Take(&c, "id = ?", companyID).Error; err != nil {
		return models.Internal("lock company: %w", err)
	}
	return nil
}

// keepAnOwner refuses a change that would leave the company without an owner.
func keepAnOwner(tx *gorm.DB, companyID uuid.UUID, m *Member) error {
	if m.Role != RoleOwner {
		return nil
	}
	var owners int64
	if err := tx.Model(&Member{}).Where("company_id = ? AND role = ?", companyID, RoleOwner).Count(&owners).Error; err != nil {
		return models.Internal("count owners: %w", err)
	}
	if owners <= 1 {
		return models.Conflict("last_owner", "role")
	}
	return nil
}

// SetMemberRole changes a member's role. Errors: invalid (role), forbidden, not_found,
// conflict (the last owner).
func (s *Service) SetMemberRole(ctx context.Context, a *Access, userID uuid.UUID, role Role) (*MemberView, error) {
	if !role.Valid() {
		return nil, models.Invalid("invalid_role", "role")
	}
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockCompany(tx, a.Company.ID); err != nil {
			return err
		}
		m, err := member(tx, a.Company.ID, userID)
		if err != nil {
			return err
		}
		if err := checkGrant(a, m.Role, role); err != nil {
			return err
		}
		if role != RoleOwner {
			if err := keepAnOwner(tx, a.Company.ID, m); err != nil {
				return err
			}
		}
		return tx.Model(m).Where("company_id = ? AND user_id = ?", a.Company.ID, userID).Update("role", role).Error
	})
	if err != nil {
		return nil, models.AsError(err)
	}
	return s.memberView(ctx, a.Company.ID, userID)
}

// RemoveMember takes a member out of the company. Errors: forbidden, not_found,
// conflict (the last owner).
func (s *Service) RemoveMember(ctx context.Context, a *Access, userID uuid.UUID) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockCompany(tx, a.Company.ID); err != nil {
			return err
		}
		m, err := member(tx, a.Company.ID, userID)
		if err != nil {
			return err
		}
		if err := checkGrant(a, m.Role); err != nil {
			return err
		}
		if err := keepAnOwner(tx, a.Company.ID, m); err != nil {
			return err
		}
		if err := tx.Where("company_id = ? AND user_id = ?", a.Company.ID, userID).Delete(&Member{}).Error; err != nil {
			return models.Internal("remove member: %w", err)
		}
		return nil
	})
}

func (s *Service) memberView(ctx context.Context, companyID, userID uuid.UUID) (*MemberView, error) {
	var v MemberView
	err := memberViews(s.DB.WithContext(ctx), companyID).Where("company_members.user_id = ?", userID).Take(&v).Error
	if err != nil {
		return nil, models.Internal("read member: %w", err)
	}
	return &v, nil
}
