package billing

import (
	"context"
	"net/mail"
	"regexp"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// Contact is a person to talk to at a client. A client with contacts has exactly one primary
// contact: the first one is primary, making another primary demotes the old one, and
// deleting the primary promotes the oldest left. A partial unique index holds it, and the
// changes of one client's contacts take the client's row lock, so concurrent writes wait
// for each other instead of failing on the index.
type Contact struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	CompanyID uuid.UUID
	ClientID  uuid.UUID
	Name      string
	Email     string
	Phone     string
	Position  string
	Comment   string
	IsPrimary bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

func (Contact) TableName() string { return "client_contacts" }

// ContactFields are the writable fields; in a patch nil means "leave alone".
type ContactFields struct {
	Name, Email, Phone, Position, Comment *string
	IsPrimary                             *bool
}

var phonePattern = regexp.MustCompile(`^\+?[0-9 ()\-]{3,32}$`)

func (c *Contact) validate() error {
	var bad fieldCheck
	bad.text("name", c.Name, 1, 200)
	if c.Email != "" {
		addr, err := mail.ParseAddress(c.Email)
		bad.check("email", err == nil && addr.Address == c.Email && len(c.Email) <= 254)
	}
	bad.check("phone", c.Phone == "" || phonePattern.MatchString(c.Phone))
	bad.text("position", c.Position, 0, 200)
	bad.text("comment", c.Comment, 0, 5000)
	return bad.err("invalid_contact")
}

func (f ContactFields) applyTo(c *Contact) {
	setText(&c.Name, f.Name)
	setText(&c.Email, f.Email)
	setText(&c.Phone, f.Phone)
	setText(&c.Position, f.Position)
	setText(&c.Comment, f.Comment)
}

// CreateContact adds a contact to a client; the client's first contact is primary whatever
// is_primary says. Errors: invalid (each bad field).
func (s *Service) CreateContact(ctx context.Context, client *Client, f ContactFields) (*Contact, error) {
	now := s.now()
	c := Contact{ID: models.NewID(), CompanyID: client.CompanyID, ClientID: client.ID, CreatedAt: now, UpdatedAt: now}
	f.applyTo(&c)
	if err := c.validate(); err != nil {
		return nil, err
	}
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockClient(tx, client.ID); err != nil {
			return err
		}
		var primaries int64
		if err := tx.Model(&Contact{}).Where("client_id = ? AND is_primary", client.ID).Count(&primaries).Error; err != nil {
			return models.Internal("count primary contacts: %w", err)
		}
		c.IsPrimary = primaries == 0 || (f.IsPrimary != nil && *f.IsPrimary)
		if err := demoteOthers(tx, &c); err != nil {
			return err
		}
		if err := tx.Create(&c).Error; err != nil {
			return models.Internal("create contact: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, models.AsError(err)
	}
	return &c, nil
}

// demoteOthers clears the primary flag of the client's other contacts when c is primary.
func demoteOthers(tx *gorm.DB, c *Contact) error {
	if !c.IsPrimary {
		return nil
	}
	err := tx.Model(&Contact{}).Where("client_id = ? AND id <> ? AND is_primary", c.ClientID, c.ID).
		Updates(map[string]any{"is_primary": false, "updated_at": c.UpdatedAt}).Error
	if err != nil {
		return models.Internal("demote primary contact: %w", err)
	}
	return nil
}

// ContactOf reads a contact of a client. Errors: not_found.
func (s *Service) ContactOf(ctx context.Context, client *Client, id uuid.UUID) (*Contact, error) {
	return contactOf(s.DB.WithContext(ctx), client.ID, id)
}

func contactOf(tx *gorm.DB, clientID, id uuid.UUID) (*Contact, error) {
	var c Contact
	err := tx.Take(&c, "id = ? AND client_id = ?", id, clientID).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("client_contact_not_found")
	}
	if err != nil {
		return nil, models.Internal("read contact: %w", err)
	}
	return &c, nil
}

// Contacts lists a client's contacts.
func (s *Service) Contacts(ctx context.Context, client *Client, page models.PageRequest) ([]Contact, string, error) {
	var rows []Contact
	if err := page.Apply(s.DB.WithContext(ctx).Where("client_id = ?", client.ID), "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list contacts: %w", err)
	}
	items, next := models.Page(page, rows, func(c Contact) uuid.UUID { return c.ID })
	return items, next, nil
}

// PatchContact changes a contact. Making it primary demotes the other; the primary contact
// stops being primary only when another becomes primary.
// Errors: invalid (each bad field), conflict (is_primary), not_found.
func (s *Service) PatchContact(ctx context.Context, contact *Contact, f ContactFields) (*Contact, error) {
	var out *Contact
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockClient(tx, contact.ClientID); err != nil {
			return err
		}
		current, err := contactOf(tx, contact.ClientID, contact.ID)
		if err != nil {
			return err
		}
		f.applyTo(current)
		if err := current.validate(); err != nil {
			return err
		}
		if f.IsPrimary != nil {
			if current.IsPrimary && !*f.IsPrimary {
				return models.Conflict("primary_contact_required", "is_primary")
			}
			current.IsPrimary = *f.IsPrimary
		}
		current.UpdatedAt = s.now()
		if err := demoteOthers(tx, current); err != nil {
			return err
		}
		if err := tx.Model(&Contact{ID: current.ID}).Select("*").UpdateColumns(current).Error; err != nil {
			return models.Internal("update contact: %w", err)
		}
		out = current
		return nil
	})
	if err != nil {
		return nil, models.AsError(err)
	}
	return out, nil
}

// DeleteContact removes a contact; when it was the primary one, the oldest contact left
// becomes primary.
func (s *Service) DeleteContact(ctx context.Context, contact *Contact) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockClient(tx, contact.ClientID); err != nil {
			return err
		}
		current, err := contactOf(tx, contact.ClientID, contact.ID)
		if err != nil {
			return err
		}
		if err := tx.Delete(&Contact{}, "id = ?", current.ID).Error; err != nil {
			return models.Internal("delete contact: %w", err)
		}
		if !current.IsPrimary {
			return nil
		}
		var oldest Contact
		err = tx.Where("client_id = ?", current.ClientID).Order("id").Take(&oldest).Error
		if models.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return models.Internal("find the next primary contact: %w", err)
		}
		if err := tx.Model(&oldest).Updates(map[string]any{"is_primary": true, "updated_at": s.now()}).Error; err != nil {
			return models.Internal("promote contact: %w", err)
		}
		return nil
	})
}
