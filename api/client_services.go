package api

import (
	"encoding/json"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/billing"
	"agencyhub/models/money"
)

type serviceTypeFields struct {
	DisplayName    *string `json:"display_name"`
	Description    *string `json:"description"`
	ServiceTypeKey *string `json:"service_type_key"`
	SortOrder      *int    `json:"sort_order"`
	Status         *string `json:"status"`
}

func (f serviceTypeFields) domain() billing.ServiceTypeFields {
	return billing.ServiceTypeFields{
		DisplayName: f.DisplayName,
		Description: f.Description,
		Key:         f.ServiceTypeKey,
		SortOrder:   f.SortOrder,
		Status:      f.Status,
	}
}

// serviceTypeView is the specification's ClientServiceTypeView: company_id is absent on
// global types, project_id on all but project types.
type serviceTypeView struct {
	ClientServiceTypeID uuid.UUID  `json:"client_service_type_id"`
	CompanyID           *uuid.UUID `json:"company_id,omitempty"`
	ProjectID           *uuid.UUID `json:"project_id,omitempty"`
	ScopeKind           string     `json:"scope_kind"`
	ServiceTypeKey      string     `json:"service_type_key"`
	DisplayName         string     `json:"display_name"`
	Description         string     `json:"description"`
	SortOrder           int        `json:"sort_order"`
	Status              string     `json:"status"`
}

func viewServiceType(t billing.ServiceType) serviceTypeView {
	v := serviceTypeView{
		ClientServiceTypeID: t.ID, ProjectID: t.ProjectID, ScopeKind: t.Scope(), ServiceTypeKey: t.Key,
		DisplayName: t.DisplayName, Description: t.Description, SortOrder: t.SortOrder, Status: t.Status,
	}
	if t.Scope() != billing.ScopeGlobal {
		v.CompanyID = &t.CompanyID
	}
	return v
}

// renderServiceTypes answers the types seen in a company, or in a project of it, of the
// statuses the query asks (active by default) in one list: they are few (a company holds at
// most 500) and ordered by sort_order, not by id.
func (s *Server) renderServiceTypes(c *gin.Context, companyID uuid.UUID, projectID *uuid.UUID) {
	statuses, err := billing.StatusFilter(c.Query("status"), billing.ServiceTypeStatuses, billing.StatusActive)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	types, err := s.Billing.ServiceTypes(c, companyID, projectID, statuses)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	renderList(c, types, "", viewServiceType)
}

// clientServiceTypeList serves GET /api/v1/client-service-types: the global types and those
// of the caller's active company (only the global ones when none is active).
func (s *Server) clientServiceTypeList(c *gin.Context) {
	wc, err := s.Company.Workspace(c, actor(c).UserID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	companyID := uuid.Nil
	if wc.ActiveCompanyID != nil {
		companyID = *wc.ActiveCompanyID
	}
	s.renderServiceTypes(c, companyID, nil)
}

// projectClientServiceTypeList serves GET /api/v1/projects/{project_id}/client-service-types.
func (s *Server) projectClientServiceTypeList(c *gin.Context) {
	p := project(c)
	s.renderServiceTypes(c, p.CompanyID, &p.ID)
}

// createServiceType binds a ClientServiceTypeInput and adds the type to the company, or to
// the project when projectID is set.
func (s *Server) createServiceType(c *gin.Context, companyID uuid.UUID, projectID *uuid.UUID) {
	var req serviceTypeFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	t, err := s.Billing.CreateServiceType(c, companyID, projectID, req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewServiceType(*t))
}

// patchServiceType binds a ClientServiceTypePatch and changes the loaded type, which must be
// of scope.
func (s *Server) patchServiceType(c *gin.Context, scope string) {
	var req serviceTypeFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	t, err := s.Billing.PatchServiceType(c, serviceType(c), scope, req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewServiceType(*t))
}

// archiveServiceType archives the loaded type, which must be of scope.
func (s *Server) archiveServiceType(c *gin.Context, scope string) {
	if err := s.Billing.ArchiveServiceType(c, serviceType(c), scope); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// projectClientServiceTypeCreate serves POST /api/v1/projects/{project_id}/client-service-types.
func (s *Server) projectClientServiceTypeCreate(c *gin.Context) {
	p := project(c)
	s.createServiceType(c, p.CompanyID, &p.ID)
}

// projectClientServiceTypePatch serves PATCH
// /api/v1/projects/{project_id}/client-service-types/{client_service_type_id}.
func (s *Server) projectClientServiceTypePatch(c *gin.Context) {
	s.patchServiceType(c, billing.ScopeProject)
}

// projectClientServiceTypeArchive serves DELETE
// /api/v1/projects/{project_id}/client-service-types/{client_service_type_id}.
func (s *Server) projectClientServiceTypeArchive(c *gin.Context) {
	s.archiveServiceType(c, billing.ScopeProject)
}

// companyClientServiceTypeCreate serves POST /api/v1/companies/{company_id}/client-service-types.
func (s *Server) companyClientServiceTypeCreate(c *gin.Context) {
	s.createServiceType(c, access(c).Company.ID, nil)
}

// companyClientServiceTypePatch serves PATCH
// /api/v1/companies/{company_id}/client-service-types/{client_service_type_id}.
func (s *Server) companyClientServiceTypePatch(c *gin.Context) {
	s.patchServiceType(c, billing.ScopeCompany)
}

// companyClientServiceTypeArchive serves DELETE
// /api/v1/companies/{company_id}/client-service-types/{client_service_type_id}.
func (s *Server) companyClientServiceTypeArchive(c *gin.Context) {
	s.archiveServiceType(c, billing.ScopeCompany)
}

// clientServiceFields is ClientServiceInput (create) and ClientServicePatch.
type clientServiceFields struct {
	ProjectID           *uuid.UUID      `json:"project_id"`
	Name                *string         `json:"name"`
	ClientServiceTypeID *uuid.UUID      `json:"client_service_type_id"`
	ServiceTypeKey      *string         `json:"service_type_key"`
	Amount              *money.Amount   `json:"amount"`
	Currency            *string         `json:"currency"`
	BillingPeriod       *string         `json:"billing_period"`
	NextDueDate         *models.Date    `json:"next_due_date"`
	RawPriceText        *string         `json:"raw_price_text"`
	Status              *string         `json:"status"`
	MetadataJSON        json.RawMessage `json:"metadata_json"`
}

func (f clientServiceFields) domain() billing.ClientServiceFields {
	return billing.ClientServiceFields{
		ProjectID: f.ProjectID, Name: f.Name, ClientServiceTypeID: f.ClientServiceTypeID, ServiceTypeKey: f.ServiceTypeKey,
		Amount: f.Amount, Currency: f.Currency, BillingPeriod: f.BillingPeriod, NextDueDate: f.NextDueDate,
		RawPriceText: f.RawPriceText, Status: f.Status, MetadataJSON: f.MetadataJSON,
	}
}

// clientServiceView is the specification's ClientServiceView.
type clientServiceView struct {
	ClientServiceID     uuid.UUID    `json:"client_service_id"`
	CompanyID           uuid.UUID    `json:"company_id"`
	ClientID            uuid.UUID    `json:"client_id"`
	ProjectID           uuid.UUID    `json:"project_id"`
	ClientServiceTypeID uuid.UUID    `json:"client_service_type_id"`
	ServiceTypeKey      string       `json:"service_type_key"`
	ServiceTypeName     string       `json:"service_type_name"`
	Name                string       `json:"name"`
	RawPriceText        string       `json:"raw_price_text"`
	Status              string       `json:"status"`
	Amount              money.Amount `json:"amount"`
	Currency            string       `json:"currency"`
	BillingPeriod       string       `json:"billing_period"`
	NextDueDate         *models.Date `json:"next_due_date,omitempty"`
}

func viewClientService(ts billing.TypedService) clientServiceView {
	return clientServiceView{
		ClientServiceID: ts.ID, CompanyID: ts.CompanyID, ClientID: ts.ClientID, ProjectID: ts.ProjectID,
		ClientServiceTypeID: ts.ClientServiceTypeID, ServiceTypeKey: ts.Type.Key, ServiceTypeName: ts.Type.DisplayName,
		Name: ts.Name, RawPriceText: ts.RawPriceText, Status: ts.Status, Amount: ts.Amount, Currency: ts.Currency,
		BillingPeriod: ts.BillingPeriod, NextDueDate: ts.NextDueDate,
	}
}

// clientServiceList serves GET /api/v1/clients/{client_id}/services.
func (s *Server) clientServiceList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]billing.TypedService, string, error) {
		statuses, err := billing.StatusFilter(c.Query("status"), billing.ClientServiceStatuses,
			billing.ServiceActive, billing.ServicePaused, billing.ServiceCompleted)
		if err != nil {
			return nil, "", err
		}
		return s.Billing.ClientServices(c, client(c), statuses, page)
	}, each(viewClientService))
}

// clientServiceCreate serves POST /api/v1/clients/{client_id}/services.
func (s *Server) clientServiceCreate(c *gin.Context) {
	var req clientServiceFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	ts, err := s.Billing.CreateClientService(c, client(c), req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewClientService(*ts))
}

// clientServiceGet serves GET /api/v1/client-services/{client_service_id}.
func (s *Server) clientServiceGet(c *gin.Context) {
	ts, err := s.Billing.TypeService(c, clientService(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewClientService(*ts))
}

// clientServicePatch serves PATCH /api/v1/client-services/{client_service_id}.
func (s *Server) clientServicePatch(c *gin.Context) {
	var req clientServiceFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	ts, err := s.Billing.PatchClientService(c, clientService(c), req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewClientService(*ts))
}

// clientServiceDelete serves DELETE /api/v1/client-services/{client_service_id}.
func (s *Server) clientServiceDelete(c *gin.Context) {
	if err := s.Billing.DeleteClientService(c, clientService(c)); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
