package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/company"
)

// legalEntityFields is the body of create (where the contract requires entity_type, name
// and inn) and of patch (where every field is optional).
type legalEntityFields struct {
	EntityType           *string `json:"entity_type"`
	Name                 *string `json:"name"`
	INN                  *string `json:"inn"`
	KPP                  *string `json:"kpp"`
	OGRN                 *string `json:"ogrn"`
	OGRNIP               *string `json:"ogrnip"`
	LegalAddress         *string `json:"legal_address"`
	ActualAddress        *string `json:"actual_address"`
	PostalAddress        *string `json:"postal_address"`
	BankName             *string `json:"bank_name"`
	BIK                  *string `json:"bik"`
	SettlementAccount    *string `json:"settlement_account"`
	CorrespondentAccount *string `json:"correspondent_account"`
}

func (f legalEntityFields) domain() company.LegalEntityFields {
	return company.LegalEntityFields{
		EntityType: f.EntityType, Name: f.Name, INN: f.INN, KPP: f.KPP, OGRN: f.OGRN, OGRNIP: f.OGRNIP,
		LegalAddress: f.LegalAddress, ActualAddress: f.ActualAddress, PostalAddress: f.PostalAddress,
		BankName: f.BankName, BIK: f.BIK, SettlementAccount: f.SettlementAccount, CorrespondentAccount: f.CorrespondentAccount,
	}
}

type legalEntityView struct {
	CompanyLegalEntityID uuid.UUID `json:"company_legal_entity_id"`
	CompanyID            uuid.UUID `json:"company_id"`
	EntityType           string    `json:"entity_type"`
	Name                 string    `json:"name"`
	INN                  string    `json:"inn"`
	KPP                  string    `json:"kpp"`
	OGRN                 string    `json:"ogrn"`
	OGRNIP               string    `json:"ogrnip"`
	LegalAddress         string    `json:"legal_address"`
	ActualAddress        string    `json:"actual_address"`
	PostalAddress        string    `json:"postal_address"`
	BankName             string    `json:"bank_name"`
	BIK                  string    `json:"bik"`
	SettlementAccount    string    `json:"settlement_account"`
	CorrespondentAccount string    `json:"correspondent_account"`
	CreatedAt            time.Time `json:"created_at"`
	UpdatedAt            time.Time `json:"updated_at"`
}

func viewLegalEntity(e company.LegalEntity) legalEntityView {
	return legalEntityView{
		CompanyLegalEntityID: e.ID, CompanyID: e.CompanyID, EntityType: e.EntityType, Name: e.Name,
		INN: e.INN, KPP: e.KPP, OGRN: e.OGRN, OGRNIP: e.OGRNIP,
		LegalAddress: e.LegalAddress, ActualAddress: e.ActualAddress, PostalAddress: e.PostalAddress,
		BankName: e.BankName, BIK: e.BIK, SettlementAccount: e.SettlementAccount, CorrespondentAccount: e.CorrespondentAccount,
		CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt,
	}
}

// legalEntityList serves GET /api/v1/companies/{company_id}/legal-entities.
func (s *Server) legalEntityList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]company.LegalEntity, string, error) {
		return s.Company.LegalEntities(c, access(c).Company.ID, page)
	}, each(viewLegalEntity))
}

// legalEntityCreate serves POST /api/v1/companies/{company_id}/legal-entities.
func (s *Server) legalEntityCreate(c *gin.Context) {
	var req legalEntityFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	e, err := s.Company.CreateLegalEntity(c, access(c).Company.ID, req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewLegalEntity(*e))
}

// legalEntityGet serves GET /api/v1/company-legal-entities/{company_legal_entity_id}.
func (s *Server) legalEntityGet(c *gin.Context) {
	c.JSON(http.StatusOK, viewLegalEntity(*legalEntity(c)))
}

// legalEntityPatch serves PATCH /api/v1/company-legal-entities/{company_legal_entity_id}.
func (s *Server) legalEntityPatch(c *gin.Context) {
	var req legalEntityFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	e, err := s.Company.PatchLegalEntity(c, legalEntity(c), req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewLegalEntity(*e))
}

// legalEntityDelete serves DELETE /api/v1/company-legal-entities/{company_legal_entity_id}.
func (s *Server) legalEntityDelete(c *gin.Context) {
	if err := s.Company.DeleteLegalEntity(c, legalEntity(c)); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
