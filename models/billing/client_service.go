package billing

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/models/money"
)

// Statuses of a client service. Only active services are billed; DeleteClientService alone
// sets deleted.
const (
	ServiceActive    = "active"
	ServicePaused    = "paused"
	ServiceCompleted = "completed"
)

// ClientServiceStatuses are the states of a client service.
var ClientServiceStatuses = []string{ServiceActive, ServicePaused, ServiceCompleted, StatusArchived, StatusDeleted}

// BillingPeriods are how often a service is billed; once is billed a single time.
var BillingPeriods = []string{"once", "weekly", "monthly", "quarterly", "semiannual", "yearly"}

// defaultServiceTypeKey is the global type of a service created without one.
const defaultServiceTypeKey = "other"

// ClientService is something a client is billed for in a project: an amount in a currency
// every billing period, next due on NextDueDate. DueAnchorDay is the day of the month of
// the due date last set by hand (0: none), so that due dates moved on by the billing cycle
// come back to it after a short month clamped them (31 Jan → 28 Feb → 31 Mar).
type ClientService struct {
	ID                  uuid.UUID `gorm:"primaryKey"`
	CompanyID           uuid.UUID
	ClientID            uuid.UUID
	ProjectID           uuid.UUID
	ClientServiceTypeID uuid.UUID
	Name                string
	Status              string
	Amount              money.Amount `gorm:"column:amount_minor"`
	Currency            string
	BillingPeriod       string
	NextDueDate         *models.Date
	DueAnchorDay        int
	RawPriceText        string
	// MetadataJSON is the caller's JSON object, stored as sent.
	MetadataJSON string `gorm:"column:metadata_json"`
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// TypedService is a service with its type.
type TypedService struct {
	ClientService
	Type ServiceType
}

// ClientServiceFields are the writable fields; in a patch nil means "leave alone", in a
// create nil takes the default (type other, amount 0, RUB, monthly, active).
type ClientServiceFields struct {
	ProjectID           *uuid.UUID
	Name                *string
	ClientServiceTypeID *uuid.UUID
	ServiceTypeKey      *string
	Amount              *money.Amount
	Currency            *string
	BillingPeriod       *string
	NextDueDate         *models.Date
	RawPriceText        *string
	Status              *string
	MetadataJSON        json.RawMessage
}

func (f ClientServiceFields) applyTo(cs *ClientService) {
	if f.ProjectID != nil {
		cs.ProjectID = *f.ProjectID
	}
	setText(&cs.Name, f.Name)
	if f.Amount != nil {
		cs.Amount = *f.Amount
	}
	setText(&cs.Currency, f.Currency)
	setText(&cs.BillingPeriod, f.BillingPeriod)
	if f.NextDueDate != nil {
		cs.NextDueDate = f.NextDueDate
		cs.DueAnchorDay = f.NextDueDate.Day()
	}
	setText(&cs.RawPriceText, f.RawPriceText)
	setText(&cs.Status, f.Status)
	if f.MetadataJSON != nil {
		cs.MetadataJSON = string(f.MetadataJSON)
	}
}

func (cs *ClientService) validate() error {
	var bad fieldCheck
	bad.text("name", cs.Name, 1, 300)
	bad.check("currency", money.ValidCurrency(cs.Currency))
	bad.check("billing_period", slices.Contains(BillingPeriods, cs.BillingPeriod))
	bad.text("raw_price_text", cs.RawPriceText, 0, 500)
	bad.check("status", slices.Contains(ClientServiceStatuses, cs.Status))
	bad.check("metadata_json", len(cs.MetadataJSON) <= 64<<10)
	return bad.err("invalid_client_service")
}

// resolveType finds the service's type: the id or the key given must name an active type
// seen in the service's project (both given must agree); with neither, a new service gets
// the global type other and a changed one keeps its type, which must still be seen there.
// Errors: invalid (client_service_type_id, service_type_key).
func resolveType(tx *gorm.DB, cs *ClientService, f ClientServiceFields) (*ServiceType, error) {
	switch {
	case f.ClientServiceTypeID != nil:
		t, err := serviceTypeIn(tx, cs.CompanyID, &cs.ProjectID, *f.ClientServiceTypeID)
		if err == nil && f.ServiceTypeKey != nil && *f.ServiceTypeKey != t.Key {
			return nil, models.Invalid("service_type_mismatch", "client_service_type_id", "service_type_key")
		}
		return activeType(t, err, "client_service_type_id")
	case f.ServiceTypeKey != nil:
		t, err := serviceTypeByKey(tx, cs.CompanyID, cs.ProjectID, *f.ServiceTypeKey)
		return activeType(t, err, "service_type_key")
	case cs.ClientServiceTypeID == uuid.Nil:
		g, _ := globalTypeByKey(defaultServiceTypeKey)
		return &g, nil
	}
	t, err := serviceTypeIn(tx, cs.CompanyID, &cs.ProjectID, cs.ClientServiceTypeID)
	if models.IsKind(err, models.KindNotFound) {
		return nil, models.Invalid("service_type_unavailable", "client_service_type_id")
	}
	return t, err
}

// activeType passes an active type on; a missing or inactive one is invalid input naming field.
func activeType(t *ServiceType, err error, field string) (*ServiceType, error) {
	if models.IsKind(err, models.KindNotFound) || (err == nil && t.Status != StatusActive) {
		return nil, models.Invalid("service_type_unavailable", field)
	}
	return t, err
}

// serviceTypeByKey reads the type a key names in a project. Errors: not_found.
func serviceTypeByKey(tx *gorm.DB, companyID, projectID uuid.UUID, key string) (*ServiceType, error) {
	if g, ok := globalTypeByKey(key); ok {
		return &g, nil
	}
	var t ServiceType
	err := tx.Where(
		"company_id = ? AND service_type_key = ? AND (project_id IS NULL OR project_id = ?)",
		companyID, key, projectID,
	).Take(&t).Error
	if models.IsNotFound(err) {
		return nil, models.NotFound("client_service_type_not_found")
	}
	if err != nil {
		return nil, models.Internal("read service type: %w", err)
	}
	return &t, nil
}

// CreateClientService adds a service to a client in a project of its company and links the
// two; a service due today or before is billed at once. Errors: invalid (each bad field;
// project_id of another company), conflict (deleted client).
func (s *Service) CreateClientService(ctx context.Context, client *Client, f ClientServiceFields) (*TypedService, error) {
	if client.Status == StatusDeleted {
		return nil, models.Conflict("client_deleted")
	}
	now := s.now()
	cs := ClientService{
		ID: models.NewID(), CompanyID: client.CompanyID, ClientID: client.ID, Currency: money.DefaultCurrency,
		BillingPeriod: "monthly", Status: ServiceActive, MetadataJSON: "{}", CreatedAt: now, UpdatedAt: now,
	}
	f.applyTo(&cs)
	if err := cs.validate(); err != nil {
		return nil, err
	}
	var out *TypedService
	billed := false
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		ts, err := s.placeService(tx, client, &cs, f)
		if err != nil {
			return err
		}
		if err := tx.Create(&cs).Error; err != nil {
			return models.Internal("create client service: %w", err)
		}
		out = ts
		billed, err = s.billIfDue(tx, *ts)
		return err
	})
	if err != nil {
		return nil, models.AsError(err)
	}
	if billed {
		models.AnnounceEvents(ctx, s.Bus)
	}
	return out, nil
}

// placeService checks the service's project and type inside tx, holding the client's lock
// so that an unlink of the project waits, and links the client to the project.
func (s *Service) placeService(tx *gorm.DB, client *Client, cs *ClientService, f ClientServiceFields) (*TypedService, error) {
	if err := lockClient(tx, client.ID); err != nil {
		return nil, err
	}
	if _, err := projectOf(tx, client.CompanyID, cs.ProjectID); err != nil {
		if models.IsKind(err, models.KindNotFound) {
			return nil, models.Invalid("service_project_outside_company", "project_id")
		}
		return nil, err
	}
	t, err := resolveType(tx, cs, f)
	if err != nil {
		return nil, err
	}
	cs.ClientServiceTypeID = t.ID
	if _, err := link(tx, client, cs.ProjectID, cs.UpdatedAt); err != nil {
		return nil, err
	}
	return &TypedService{ClientService: *cs, Type: *t}, nil
}

// ClientServiceAccess returns a client service and the caller's standing in its company.
// Errors: not_found.
func (s *Service) ClientServiceAccess(ctx context.Context, userID, id uuid.UUID) (*ClientService, *company.Access, error) {
	return company.LoadOwned(
		ctx,
		s.Companies,
		userID,
		id,
		"client_service_not_found",
		func(cs *ClientService) uuid.UUID { return cs.CompanyID },
	)
}

// TypeService adds its type to a service.
func (s *Service) TypeService(ctx context.Context, cs *ClientService) (*TypedService, error) {
	typed, err := s.typed(ctx, []ClientService{*cs})
	if err != nil {
		return nil, err
	}
	return &typed[0], nil
}

// typed reads the types of services: global ones from the catalog, the others in one query.
func (s *Service) typed(ctx context.Context, services []ClientService) ([]TypedService, error) {
	return typedIn(s.DB.WithContext(ctx), services)
}

// typedIn is typed on db, which may be a transaction.
func typedIn(db *gorm.DB, services []ClientService) ([]TypedService, error) {
	var ids []uuid.UUID
	for _, cs := range services {
		if _, ok := globalTypes[cs.ClientServiceTypeID]; !ok {
			ids = append(ids, cs.ClientServiceTypeID)
		}
	}
	var rows []ServiceType
	if len(ids) > 0 {
		if err := db.Where("id IN ?", ids).Find(&rows).Error; err != nil {
			return nil, models.Internal("read service types: %w", err)
		}
	}
	types := map[uuid.UUID]ServiceType{}
	for _, t := range rows {
		types[t.ID] = t
	}
	out := make([]TypedService, len(services))
	for i, cs := range services {
		t, ok := globalTypes[cs.ClientServiceTypeID]
		if !ok {
			t = types[cs.ClientServiceTypeID]
		}
		out[i] = TypedService{ClientService: cs, Type: t}
	}
	return out, nil
}

// ClientServices lists a client's services of the given statuses.
func (s *Service) ClientServices(ctx context.Context, client *Client, statuses []string,
	page models.PageRequest) ([]TypedService, string, error) {
	var rows []ClientService
	q := s.DB.WithContext(ctx).Where("client_id = ? AND status IN ?", client.ID, statuses)
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list client services: %w", err)
	}
	rows, next := models.Page(page, rows, func(cs ClientService) uuid.UUID { return cs.ID })
	typed, err := s.typed(ctx, rows)
	return typed, next, err
}

// PatchClientService applies a patch and validates the result as a whole; a new project
// must be of the client's company and is linked, a new type must be seen there. A service
// left active and due today or before is billed at once. Errors: invalid (each bad field),
// not_found.
func (s *Service) PatchClientService(ctx context.Context, cs *ClientService, f ClientServiceFields) (*TypedService, error) {
	out := *cs
	f.applyTo(&out)
	if err := out.validate(); err != nil {
		return nil, err
	}
	out.UpdatedAt = s.now()
	var typed *TypedService
	billed := false
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var client Client
		if err := tx.Take(&client, "id = ?", cs.ClientID).Error; err != nil {
			return models.Internal("read client of service: %w", err)
		}
		ts, err := s.placeService(tx, &client, &out, f)
		if err != nil {
			return err
		}
		// Billed before the service's row is written: payments lock actions first and
		// services second, and so does this.
		if billed, err = s.billIfDue(tx, *ts); err != nil {
			return err
		}
		res := tx.Model(&ClientService{ID: cs.ID}).Where("company_id = ?", cs.CompanyID).Select("*").UpdateColumns(&out)
		if res.Error != nil {
			return models.Internal("update client service: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return models.NotFound("client_service_not_found")
		}
		typed = ts
		return nil
	})
	if err != nil {
		return nil, models.AsError(err)
	}
	if billed {
		models.AnnounceEvents(ctx, s.Bus)
	}
	return typed, nil
}

// DeleteClientService marks a service deleted, kept for its payment history.
func (s *Service) DeleteClientService(ctx context.Context, cs *ClientService) error {
	err := s.DB.WithContext(ctx).Model(&ClientService{ID: cs.ID}).Where("company_id = ?", cs.CompanyID).
		Updates(map[string]any{"status": StatusDeleted, "updated_at": s.now()}).Error
	if err != nil {
		return models.Internal("delete client service: %w", err)
	}
	return nil
}
