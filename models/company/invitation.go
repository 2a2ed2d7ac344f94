package company

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agencyhub/models"
	"agencyhub/models/outbox"
)

// InvitationTTL is how long an invitation link works; inviting again restarts it.
const InvitationTTL = 7 * 24 * time.Hour

// Invitation asks the owner of an e-mail address to join a company with a role. It is open
// until accepted or revoked; the link's token is stored only as its hash.
type Invitation struct {
	ID               uuid.UUID `gorm:"primaryKey"`
	CompanyID        uuid.UUID
	Email            string
	Role             Role
	InvitedByUserID  *uuid.UUID
	TokenHash        string
	CreatedAt        time.Time
	ExpiresAt        time.Time
	AcceptedAt       *time.Time
	AcceptedByUserID *uuid.UUID
	RevokedAt        *time.Time
}

func (Invitation) TableName() string { return "company_invitations" }

// InvitationView is an open invitation with the name of who sent it and whether its link
// has run out, by the server's clock.
type InvitationView struct {
	Invitation
	InvitedByName string
	Expired       bool `gorm:"-"`
}

// InvitationMail says how an invitation reaches its person.
type InvitationMail struct {
	// AcceptURL is the console page that takes the token as its `token` query parameter.
	AcceptURL string
	// Delivered is whether this server sends mail; when not, the link is handed back to
	// the inviter to pass on.
	Delivered bool
}

// Invited is the outcome of Invite.
type Invited struct {
	Invitation InvitationView
	// Created is false when an open invitation of the e-mail was refreshed instead.
	Created bool
	// Link is the accept link when mail is not delivered, else empty: it is shown once.
	Link string
}

// InvitationPreview is what the holder of an invitation link may read before accepting.
type InvitationPreview struct {
	CompanyName   string
	InvitedByName string
	Email         string
	Role          Role
	ExpiresAt     time.Time
}

// openInvitations selects the company's open invitations as InvitationView rows.
func openInvitations(db *gorm.DB, companyID uuid.UUID) *gorm.DB {
	return db.Table("company_invitations").
		Select("company_invitations.*, COALESCE(users.name, '') AS invited_by_name").
		Joins("LEFT JOIN users ON users.id = company_invitations.invited_by_user_id").
		Where("company_invitations.company_id = ? AND company_invitations.accepted_at IS NULL AND company_invitations.revoked_at IS NULL", companyID)
}

// Invitations lists a company's open invitations, expired ones included, so they can be
// sent again or revoked.
func (s *Service) Invitations(ctx context.Context, companyID uuid.UUID, page models.PageRequest) ([]InvitationView, string, error) {
	var rows []InvitationView
	if err := page.Apply(openInvitations(s.DB.WithContext(ctx), companyID), "company_invitations.id").Scan(&rows).Error; err != nil {
		return nil, "", models.Internal("list invitations: %w", err)
	}
	now := s.now()
	for i := range rows {
		rows[i].Expired = !now.Before(rows[i].ExpiresAt)
	}
	items, next := models.Page(page, rows, func(v InvitationView) uuid.UUID { return v.ID })
	return items, next, nil
}

// Invite invites an e-mail to the company with a role and mails the link, in the caller's
// language. An open invitation of the same e-mail is refreshed: new role, new link (the old
// one stops working), a new week. Errors: invalid (email, role), forbidden, conflict
// (already_a_member).
func (s *Service) Invite(ctx context.Context, a *Access, inviterID uuid.UUID, email string, role Role, via InvitationMail) (*Invited, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if email == "" {
		return nil, models.Invalid("invalid_email", "email")
	}
	if !role.Valid() {
		return nil, models.Invalid("invalid_role", "role")
	}
	if err := checkGrant(a, role); err != nil {
		return nil, err
	}
	token := models.RandomToken(32)
	now := s.now()
	out := &Invited{}
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockCompany(tx, a.Company.ID); err != nil {
			return err
		}
		var members int64
		err := tx.Table("company_members").Joins("JOIN users ON users.id = company_members.user_id").
			Where("company_members.company_id = ? AND users.email = ?", a.Company.ID, email).Count(&members).Error
		if err != nil {
			return models.Internal("check membership: %w", err)
		}
		if members > 0 {
			return models.Conflict("already_a_member", "email")
		}
		var inv Invitation
		err = tx.Take(&inv, "company_id = ? AND email = ? AND accepted_at IS NULL AND revoked_at IS NULL", a.Company.ID, email).Error
		switch {
		case models.IsNotFound(err):
			out.Created = true
			inv = Invitation{ID: models.NewID(), CompanyID: a.Company.ID, Email: email, CreatedAt: now}
		case err != nil:
			return models.Internal("read invitation: %w", err)
		}
		inv.Role, inv.InvitedByUserID, inv.TokenHash, inv.ExpiresAt = role, &inviterID, models.HashToken(token), now.Add(InvitationTTL)
		if err := tx.Save(&inv).Error; err != nil {
			return models.Internal("save invitation: %w", err)
		}
		var inviter struct{ Name string }
		if err := tx.Table("users").Select("name").Take(&inviter, "id = ?", inviterID).Error; err != nil {
			return models.Internal("read inviter: %w", err)
		}
		out.Invitation = InvitationView{Invitation: inv, InvitedByName: inviter.Name}
		link := via.AcceptURL + "?token=" + token
		m := invitationMail(models.Language(ctx), inviter.Name, a.Company.Name, link)
		if !via.Delivered {
			out.Link = link
		}
		return outbox.Enqueue(ctx, tx, now, email, m.subject, m.body)
	})
	if err != nil {
		return nil, models.AsError(err)
	}
	return out, nil
}

// RevokeInvitation ends an open invitation of the company; its link stops working.
// Errors: forbidden (an owner invitation, by a non-owner), not_found.
func (s *Service) RevokeInvitation(ctx context.Context, a *Access, id uuid.UUID) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var inv Invitation
		err := tx.Take(&inv, "id = ? AND company_id = ? AND accepted_at IS NULL AND revoked_at IS NULL", id, a.Company.ID).Error
		if models.IsNotFound(err) {
			return models.NotFound("invitation_not_found")
		}
		if err != nil {
			return models.Internal("read invitation: %w", err)
		}
		if err := checkGrant(a, inv.Role); err != nil {
			return err
		}
		if err := tx.Model(&inv).Update("revoked_at", s.now()).Error; err != nil {
			return models.Internal("revoke invitation: %w", err)
		}
		return nil
	})
}

// invitationByToken reads the open, unexpired invitation a link's token names, and says
// plainly why when there is none. Errors: invalid (token).
func (s *Service) invitationByToken(tx *gorm.DB, token string) (*Invitation, error) {
	var inv Invitation
	err := tx.Take(&inv, "token_hash = ?", models.HashToken(token)).Error
	switch {
	case models.IsNotFound(err):
		return nil, models.Invalid("invitation_unknown", "token")
	case err != nil:
		return nil, models.Internal("read invitation: %w", err)
	case inv.AcceptedAt != nil:
		return nil, models.Invalid("invitation_used", "token")
	case inv.RevokedAt != nil:
		return nil, models.Invalid("invitation_revoked", "token")
	case !s.now().Before(inv.ExpiresAt):
		return nil, models.Invalid("invitation_expired", "token")
	}
	return &inv, nil
}

// PreviewInvitation tells the holder of a link who invited them to which company, as what.
// Errors: invalid (token).
func (s *Service) PreviewInvitation(ctx context.Context, token string) (*InvitationPreview, error) {
	db := s.DB.WithContext(ctx)
	inv, err := s.invitationByToken(db, token)
	if err != nil {
		return nil, err
	}
	p := InvitationPreview{Email: inv.Email, Role: inv.Role, ExpiresAt: inv.ExpiresAt}
	err = db.Table("companies").Select("companies.name AS company_name, COALESCE(users.name, '') AS invited_by_name").
		Joins("LEFT JOIN users ON users.id = ?", inv.InvitedByUserID).Where("companies.id = ?", inv.CompanyID).Take(&p).Error
	if err != nil {
		return nil, models.Internal("read invitation's company: %w", err)
	}
	return &p, nil
}

// AcceptInvitation makes the signed-in user a member with the invitation's role (a member
// already keeps their role), spends the link and makes the company the user's active one.
// The account's e-mail must be the invited one. Errors: invalid (token), forbidden
// (invitation_other_email).
func (s *Service) AcceptInvitation(ctx context.Context, userID uuid.UUID, token string) (*Access, error) {
	var out *Access
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		inv, err := s.invitationByToken(tx, token)
		if err != nil {
			return err
		}
		var user struct{ Email string }
		if err := tx.Table("users").Select("email").Take(&user, "id = ?", userID).Error; err != nil {
			return models.Internal("read account: %w", err)
		}
		if !strings.EqualFold(user.Email, inv.Email) {
			return models.Forbidden("invitation_other_email")
		}
		now := s.now()
		res := tx.Model(&Invitation{}).Where("id = ? AND accepted_at IS NULL AND revoked_at IS NULL", inv.ID).
			Updates(map[string]any{"accepted_at": now, "accepted_by_user_id": userID})
		if res.Error != nil {
			return models.Internal("accept invitation: %w", res.Error)
		}
		if res.RowsAffected == 0 { // a concurrent request spent or revoked it first
			return models.Invalid("invitation_used", "token")
		}
		m := Member{CompanyID: inv.CompanyID, UserID: userID, Role: inv.Role, CreatedAt: now}
		if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&m).Error; err != nil {
			return models.Internal("add member: %w", err)
		}
		if err := s.saveWorkspace(tx, &WorkspaceContext{UserID: userID, ActiveCompanyID: &inv.CompanyID}); err != nil {
			return err
		}
		joined, err := member(tx, inv.CompanyID, userID)
		if err != nil {
			return err
		}
		var c Company
		if err := tx.Take(&c, "id = ?", inv.CompanyID).Error; err != nil {
			return models.Internal("read company: %w", err)
		}
		out = &Access{Company: c, Role: joined.Role}
		return nil
	})
	if err != nil {
		return nil, models.AsError(err)
	}
	return out, nil
}
