package billing

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
	"agencyhub/models/company"
	"agencyhub/models/taxid"
)

// Client types.
const (
	ClientIndividual   = "individual"
	ClientEntrepreneur = "individual_entrepreneur"
	ClientLegalEntity  = "legal_entity"
)

// ClientStatuses are the states of a client; DeleteClient alone sets deleted.
var ClientStatuses = []string{StatusActive, StatusArchived, StatusDeleted}

// Client is a person or organisation a company bills, with its registry identifiers.
type Client struct {
	ID            uuid.UUID `gorm:"primaryKey"`
	CompanyID     uuid.UUID
	ClientType    string
	Status        string
	Name          string
	FullName      string
	ShortName     string
	INN           string `gorm:"column:inn"`
	KPP           string `gorm:"column:kpp"`
	OGRN          string `gorm:"column:ogrn"`
	OGRNIP        string `gorm:"column:ogrnip"`
	OKVED         string `gorm:"column:okved"`
	LegalAddress  string
	ActualAddress string
	Comment       string
	// SearchText is the lower-cased names and INN that `q` searches: lower-casing in Go
	// folds Cyrillic too, which SQLite's lower() does not.
	SearchText string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// CountedClient is a client with the number of its linked projects and of its services
// that are not deleted.
type CountedClient struct {
	Client
	ProjectsCount int
	ServicesCount int
}

// ClientFields are the writable fields; in a patch nil means "leave alone", in a create nil
// means empty (status: active).
type ClientFields struct {
	ClientType, Status, Name, FullName, ShortName *string
	INN, KPP, OGRN, OGRNIP, OKVED                 *string
	LegalAddress, ActualAddress, Comment          *string
}

func (f ClientFields) applyTo(c *Client) {
	setText(&c.ClientType, f.ClientType)
	setText(&c.Status, f.Status)
	setText(&c.Name, f.Name)
	setText(&c.FullName, f.FullName)
	setText(&c.ShortName, f.ShortName)
	setText(&c.INN, f.INN)
	setText(&c.KPP, f.KPP)
	setText(&c.OGRN, f.OGRN)
	setText(&c.OGRNIP, f.OGRNIP)
	setText(&c.OKVED, f.OKVED)
	setText(&c.LegalAddress, f.LegalAddress)
	setText(&c.ActualAddress, f.ActualAddress)
	setText(&c.Comment, f.Comment)
	c.SearchText = strings.ToLower(strings.Join([]string{c.Name, c.FullName, c.ShortName, c.INN}, " "))
}

// okvedPattern is an OKVED 2 code: a class, then up to three more levels (62, 62.01, 47.11.1).
var okvedPattern = regexp.MustCompile(`^[0-9]{2}(\.[0-9]{1,2}){0,2}(\.[0-9])?$`)

// validate checks the whole client and names every offending field at once: the registry
// identifiers a client type takes are checked with their check digits, the others must be
// empty.
func (c *Client) validate() error {
	var bad fieldCheck
	optional := func(field, value string, valid func(string) error) {
		bad.check(field, value == "" || valid(value) == nil)
	}
	empty := func(field, value string) { bad.check(field, value == "") }
	switch c.ClientType {
	case ClientLegalEntity:
		bad.check("inn", taxid.LegalEntityINN(c.INN) == nil)
		optional("kpp", c.KPP, taxid.KPP)
		optional("ogrn", c.OGRN, taxid.OGRN)
		empty("ogrnip", c.OGRNIP)
	case ClientEntrepreneur:
		bad.check("inn", taxid.PersonINN(c.INN) == nil)
		empty("kpp", c.KPP)
		empty("ogrn", c.OGRN)
		optional("ogrnip", c.OGRNIP, taxid.OGRNIP)
	case ClientIndividual:
		optional("inn", c.INN, taxid.PersonINN)
		empty("kpp", c.KPP)
		empty("ogrn", c.OGRN)
		empty("ogrnip", c.OGRNIP)
	default:
		bad = append(bad, "client_type")
	}
	bad.check("status", slices.Contains(ClientStatuses, c.Status))
	bad.text("name", c.Name, 1, 300)
	bad.text("full_name", c.FullName, 0, 500)
	bad.text("short_name", c.ShortName, 0, 300)
	bad.check("okved", c.OKVED == "" || okvedPattern.MatchString(c.OKVED))
	bad.text("legal_address", c.LegalAddress, 0, 500)
	bad.text("actual_address", c.ActualAddress, 0, 500)
	bad.text("comment", c.Comment, 0, 5000)
	return bad.err("invalid_client")
}

// saveError maps a write of a client: the same INN as another live client of the company is
// a conflict (the unique index decides, so two writers at once cannot both pass).
func saveError(err error, action string) error {
	if models.IsUniqueViolation(err) {
		return models.Conflict("client_inn_taken", "inn")
	}
	return models.Internal("%s client: %w", action, err)
}

// CreateClient adds a client to a company. Errors: invalid (each bad field), conflict (inn).
func (s *Service) CreateClient(ctx context.Context, companyID uuid.UUID, f ClientFields) (*CountedClient, error) {
	now := s.now()
	c := Client{ID: models.NewID(), CompanyID: companyID, Status: StatusActive, CreatedAt: now, UpdatedAt: now}
	f.applyTo(&c)
	if err := c.validate(); err != nil {
		return nil, err
	}
	if err := s.DB.WithContext(ctx).Create(&c).Error; err != nil {
		return nil, saveError(err, "create")
	}
	return &CountedClient{Client: c}, nil
}

// ClientAccess returns a client and the caller's standing in its company. Errors: not_found.
func (s *Service) ClientAccess(ctx context.Context, userID, id uuid.UUID) (*Client, *company.Access, error) {
	return company.LoadOwned(ctx, s.Companies, userID, id, "client_not_found", func(c *Client) uuid.UUID { return c.CompanyID })
}

// ClientFilter narrows a client list: statuses (active ones by default) and a text that
// the name, full name, short name or INN contains, in any case.
type ClientFilter struct {
	Statuses []string
	// Types keeps the clients of these types; empty keeps every type.
	Types []string
	Query string
}

// Clients lists a company's clients.
func (s *Service) Clients(ctx context.Context, companyID uuid.UUID, filter ClientFilter,
	page models.PageRequest) ([]CountedClient, string, error) {
	q := s.DB.WithContext(ctx).Where("company_id = ? AND status IN ?", companyID, filter.Statuses)
	if len(filter.Types) > 0 {
		q = q.Where("client_type IN ?", filter.Types)
	}
	if filter.Query != "" {
		q = q.Where(`search_text LIKE ? ESCAPE '\'`, models.LikeContains(strings.ToLower(strings.TrimSpace(filter.Query))))
	}
	var rows []Client
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list clients: %w", err)
	}
	rows, next := models.Page(page, rows, func(c Client) uuid.UUID { return c.ID })
	counted, err := s.count(ctx, rows)
	return counted, next, err
}

// CountClient adds the counts to a client.
func (s *Service) CountClient(ctx context.Context, c *Client) (*CountedClient, error) {
	counted, err := s.count(ctx, []Client{*c})
	if err != nil {
		return nil, err
	}
	return &counted[0], nil
}

// count reads the linked projects and the services that are not deleted of each client.
func (s *Service) count(ctx context.Context, clients []Client) ([]CountedClient, error) {
	ids := make([]uuid.UUID, len(clients))
	for i, c := range clients {
		ids[i] = c.ID
	}
	type tally struct {
		ClientID uuid.UUID
		N        int
	}
	var projects, services []tally
	db := s.DB.WithContext(ctx)
	if err := db.Model(&ClientProject{}).
		Select("client_id, COUNT(*) AS n").
		Where("client_id IN ?", ids).
		Group("client_id").
		Scan(&projects).Error; err != nil {
		return nil, models.Internal("count client projects: %w", err)
	}
	if err := db.Model(&ClientService{}).
		Select("client_id, COUNT(*) AS n").
		Where("client_id IN ? AND status <> ?", ids, StatusDeleted).
		Group("client_id").
		Scan(&services).Error; err != nil {
		return nil, models.Internal("count client services: %w", err)
	}
	byID := map[uuid.UUID]*CountedClient{}
	out := make([]CountedClient, len(clients))
	for i, c := range clients {
		out[i].Client = c
		byID[c.ID] = &out[i]
	}
	for _, t := range projects {
		byID[t.ClientID].ProjectsCount = t.N
	}
	for _, t := range services {
		byID[t.ClientID].ServicesCount = t.N
	}
	return out, nil
}

// PatchClient applies a patch and validates the result as a whole. Status active or archived
// restores a deleted client, whose INN must then be free again; only DeleteClient deletes.
// Errors: invalid (each bad field), conflict (inn), not_found.
func (s *Service) PatchClient(ctx context.Context, c *Client, f ClientFields) (*CountedClient, error) {
	out := *c
	f.applyTo(&out)
	if err := out.validate(); err != nil {
		return nil, err
	}
	out.UpdatedAt = s.now()
	res := s.DB.WithContext(ctx).Model(&Client{ID: c.ID}).Where("company_id = ?", c.CompanyID).Select("*").UpdateColumns(&out)
	if res.Error != nil {
		return nil, saveError(res.Error, "update")
	}
	if res.RowsAffected == 0 {
		return nil, models.NotFound("client_not_found")
	}
	return s.CountClient(ctx, &out)
}

// DeleteClient marks a client deleted, kept for its payment history, and archives its
// active and paused services so that nothing bills it any more.
func (s *Service) DeleteClient(ctx context.Context, c *Client) error {
	now := s.now()
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&Client{ID: c.ID}).Where("company_id = ?", c.CompanyID).
			Updates(map[string]any{"status": StatusDeleted, "updated_at": now}).Error; err != nil {
			return models.Internal("delete client: %w", err)
		}
		if err := tx.Model(&ClientService{}).Where("client_id = ? AND status IN ?", c.ID, []string{ServiceActive, ServicePaused}).
			Updates(map[string]any{"status": StatusArchived, "updated_at": now}).Error; err != nil {
			return models.Internal("archive services of a deleted client: %w", err)
		}
		return nil
	})
}
