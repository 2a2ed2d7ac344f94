package company

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/taxid"
)

// Entity types of a legal entity.
const (
	EntityLegal        = "legal_entity"
	EntityEntrepreneur = "individual_entrepreneur"
)

// LegalEntity is a legal person a company invoices from: its registry identifiers,
// addresses and bank details.
type LegalEntity struct {
	ID                   uuid.UUID `gorm:"primaryKey"`
	CompanyID            uuid.UUID
	EntityType           string
	Name                 string
	INN                  string `gorm:"column:inn"`
	KPP                  string `gorm:"column:kpp"`
	OGRN                 string `gorm:"column:ogrn"`
	OGRNIP               string `gorm:"column:ogrnip"`
	LegalAddress         string
	ActualAddress        string
	PostalAddress        string
	BankName             string
	BIK                  string `gorm:"column:bik"`
	SettlementAccount    string
	CorrespondentAccount string
	CreatedAt            time.Time
	UpdatedAt            time.Time
}

func (LegalEntity) TableName() string { return "company_legal_entities" }

// LegalEntityFields are the writable fields; in a patch nil means "leave alone", in a
// create nil means empty.
type LegalEntityFields struct {
	EntityType, Name, INN, KPP, OGRN, OGRNIP               *string
	LegalAddress, ActualAddress, PostalAddress             *string
	BankName, BIK, SettlementAccount, CorrespondentAccount *string
}

func (f LegalEntityFields) applyTo(e *LegalEntity) {
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = strings.TrimSpace(*src)
		}
	}
	set(&e.EntityType, f.EntityType)
	set(&e.Name, f.Name)
	set(&e.INN, f.INN)
	set(&e.KPP, f.KPP)
	set(&e.OGRN, f.OGRN)
	set(&e.OGRNIP, f.OGRNIP)
	set(&e.LegalAddress, f.LegalAddress)
	set(&e.ActualAddress, f.ActualAddress)
	set(&e.PostalAddress, f.PostalAddress)
	set(&e.BankName, f.BankName)
	set(&e.BIK, f.BIK)
	set(&e.SettlementAccount, f.SettlementAccount)
	set(&e.CorrespondentAccount, f.CorrespondentAccount)
}

// validate checks the whole entity and reports every offending field at once.
func (e *LegalEntity) validate() error {
	var bad []string
	check := func(field string, ok bool) {
		if !ok {
			bad = append(bad, field)
		}
	}
	optional := func(field, value string, valid func(string) error) {
		check(field, value == "" || valid(value) == nil)
	}
	check("name", utf8.RuneCountInString(e.Name) >= 1 && utf8.RuneCountInString(e.Name) <= 300)
	switch e.EntityType {
	case EntityLegal:
		check("inn", taxid.LegalEntityINN(e.INN) == nil)
		optional("kpp", e.KPP, taxid.KPP)
		optional("ogrn", e.OGRN, taxid.OGRN)
		check("ogrnip", e.OGRNIP == "")
	case EntityEntrepreneur:
		check("inn", taxid.PersonINN(e.INN) == nil)
		check("kpp", e.KPP == "")
		check("ogrn", e.OGRN == "")
		optional("ogrnip", e.OGRNIP, taxid.OGRNIP)
	default:
		bad = append(bad, "entity_type")
	}
	optional("bik", e.BIK, taxid.BIK)
	accountValid := func(field, account string, valid func(account, bik string) error) {
		check(field, account == "" || (e.BIK != "" && valid(account, e.BIK) == nil))
	}
	accountValid("settlement_account", e.SettlementAccount, taxid.SettlementAccount)
	accountValid("correspondent_account", e.CorrespondentAccount, taxid.CorrespondentAccount)
	for _, long := range []struct{ field, value string }{
		{"legal_address", e.LegalAddress}, {"actual_address", e.ActualAddress},
		{"postal_address", e.PostalAddress}, {"bank_name", e.BankName},
	} {
		check(long.field, utf8.RuneCountInString(long.value) <= 500)
	}
	if len(bad) > 0 {
		return models.Invalid("invalid_legal_entity", bad...)
	}
	return nil
}

// CreateLegalEntity adds a legal entity to a company. Errors: invalid (each bad field).
func (s *Service) CreateLegalEntity(ctx context.Context, companyID uuid.UUID, f LegalEntityFields) (*LegalEntity, error) {
	now := s.now()
	e := &LegalEntity{ID: models.NewID(), CompanyID: companyID, CreatedAt: now, UpdatedAt: now}
	f.applyTo(e)
	if err := e.validate(); err != nil {
		return nil, err
	}
	if err := s.DB.WithContext(ctx).Create(e).Error; err != nil {
		return nil, models.Internal("create legal entity: %w", err)
	}
	return e, nil
}

// LegalEntityAccess returns a legal entity and the caller's standing in its company.
// Errors: not_found.
func (s *Service) LegalEntityAccess(ctx context.Context, userID, id uuid.UUID) (*LegalEntity, *Access, error) {
	return LoadOwned(ctx, s, userID, id, "legal_entity_not_found", func(e *LegalEntity) uuid.UUID { return e.CompanyID })
}

// LegalEntities lists a company's legal entities.
func (s *Service) LegalEntities(ctx context.Context, companyID uuid.UUID, page models.PageRequest) ([]LegalEntity, string, error) {
	var rows []LegalEntity
	q := s.DB.WithContext(ctx).Where("company_id = ?", companyID)
	if err := page.Apply(q, "id").Find(&rows).Error; err != nil {
		return nil, "", models.Internal("list legal entities: %w", err)
	}
	items, next := models.Page(page, rows, func(e LegalEntity) uuid.UUID { return e.ID })
	return items, next, nil
}

// PatchLegalEntity applies a patch and validates the result as a whole.
// Errors: invalid (each bad field), not_found (deleted since it was loaded).
func (s *Service) PatchLegalEntity(ctx context.Context, e *LegalEntity, f LegalEntityFields) (*LegalEntity, error) {
	out := *e
	f.applyTo(&out)
	if err := out.validate(); err != nil {
		return nil, err
	}
	out.UpdatedAt = s.now()
	// Updates, not Save: Save inserts the row again when it finds none, which would bring
	// back an entity deleted since it was loaded.
	res := s.DB.WithContext(ctx).Model(&LegalEntity{ID: e.ID}).Where("company_id = ?", e.CompanyID).Select("*").UpdateColumns(&out)
	if res.Error != nil {
		return nil, models.Internal("update legal entity: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return nil, models.NotFound("legal_entity_not_found")
	}
	return &out, nil
}

// DeleteLegalEntity removes a legal entity.
func (s *Service) DeleteLegalEntity(ctx context.Context, e *LegalEntity) error {
	if err := s.DB.WithContext(ctx).Where("company_id = ?", e.CompanyID).Delete(&LegalEntity{ID: e.ID}).Error; err != nil {
		return models.Internal("delete legal entity: %w", err)
	}
	return nil
}
