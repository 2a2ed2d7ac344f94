package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/billing"
)

// clientFields is the body of create (where the contract requires client_type and name) and
// of patch (where every field is optional).
type clientFields struct {
	ClientType    *string `json:"client_type"`
	Status        *string `json:"status"`
	Name          *string `json:"name"`
	FullName      *string `json:"full_name"`
	ShortName     *string `json:"short_name"`
	INN           *string `json:"inn"`
	KPP           *string `json:"kpp"`
	OGRN          *string `json:"ogrn"`
	OGRNIP        *string `json:"ogrnip"`
	OKVED         *string `json:"okved"`
	LegalAddress  *string `json:"legal_address"`
	ActualAddress *string `json:"actual_address"`
	Comment       *string `json:"comment"`
}

func (f clientFields) domain() billing.ClientFields {
	return billing.ClientFields{
		ClientType: f.ClientType, Status: f.Status, Name: f.Name, FullName: f.FullName, ShortName: f.ShortName,
		INN: f.INN, KPP: f.KPP, OGRN: f.OGRN, OGRNIP: f.OGRNIP, OKVED: f.OKVED,
		LegalAddress: f.LegalAddress, ActualAddress: f.ActualAddress, Comment: f.Comment,
	}
}

// clientView is the specification's ClientView.
type clientView struct {
	ClientID      uuid.UUID `json:"client_id"`
	CompanyID     uuid.UUID `json:"company_id"`
	ClientType    string    `json:"client_type"`
	Status        string    `json:"status"`
	Name          string    `json:"name"`
	FullName      string    `json:"full_name"`
	ShortName     string    `json:"short_name"`
	INN           string    `json:"inn"`
	KPP           string    `json:"kpp"`
	OGRN          string    `json:"ogrn"`
	OGRNIP        string    `json:"ogrnip"`
	OKVED         string    `json:"okved"`
	LegalAddress  string    `json:"legal_address"`
	ActualAddress string    `json:"actual_address"`
	Comment       string    `json:"comment"`
	ProjectsCount int       `json:"projects_count"`
	ServicesCount int       `json:"services_count"`
}

func viewClient(c billing.CountedClient) clientView {
	return clientView{
		ClientID: c.ID, CompanyID: c.CompanyID, ClientType: c.ClientType, Status: c.Status,
		Name: c.Name, FullName: c.FullName, ShortName: c.ShortName,
		INN: c.INN, KPP: c.KPP, OGRN: c.OGRN, OGRNIP: c.OGRNIP, OKVED: c.OKVED,
		LegalAddress: c.LegalAddress, ActualAddress: c.ActualAddress, Comment: c.Comment,
		ProjectsCount: c.ProjectsCount, ServicesCount: c.ServicesCount,
	}
}

// clientList serves GET /api/v1/companies/{company_id}/clients.
func (s *Server) clientList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]billing.CountedClient, string, error) {
		statuses, err := billing.StatusFilter(c.Query("status"), billing.ClientStatuses, billing.StatusActive)
		if err != nil {
			return nil, "", err
		}
		var types []string // each one of the contract's enum, which the request check enforces
		if raw := c.Query("client_type"); raw != "" {
			types = strings.Split(raw, ",")
		}
		filter := billing.ClientFilter{Statuses: statuses, Types: types, Query: c.Query("q")}
		return s.Billing.Clients(c, access(c).Company.ID, filter, page)
	}, each(viewClient))
}

// clientCreate serves POST /api/v1/companies/{company_id}/clients.
func (s *Server) clientCreate(c *gin.Context) {
	var req clientFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	cl, err := s.Billing.CreateClient(c, access(c).Company.ID, req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewClient(*cl))
}

// clientGet serves GET /api/v1/clients/{client_id}.
func (s *Server) clientGet(c *gin.Context) {
	cl, err := s.Billing.CountClient(c, client(c))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewClient(*cl))
}

// clientPatch serves PATCH /api/v1/clients/{client_id}.
func (s *Server) clientPatch(c *gin.Context) {
	var req clientFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	cl, err := s.Billing.PatchClient(c, client(c), req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewClient(*cl))
}

// clientDelete serves DELETE /api/v1/clients/{client_id}.
func (s *Server) clientDelete(c *gin.Context) {
	if err := s.Billing.DeleteClient(c, client(c)); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

type contactFields struct {
	Name      *string `json:"name"`
	Email     *string `json:"email"`
	Phone     *string `json:"phone"`
	Position  *string `json:"position"`
	Comment   *string `json:"comment"`
	IsPrimary *bool   `json:"is_primary"`
}

func (f contactFields) domain() billing.ContactFields {
	return billing.ContactFields{
		Name:      f.Name,
		Email:     f.Email,
		Phone:     f.Phone,
		Position:  f.Position,
		Comment:   f.Comment,
		IsPrimary: f.IsPrimary,
	}
}

type contactView struct {
	ClientContactID uuid.UUID `json:"client_contact_id"`
	ClientID        uuid.UUID `json:"client_id"`
	Name            string    `json:"name"`
	Email           string    `json:"email"`
	Phone           string    `json:"phone"`
	Position        string    `json:"position"`
	Comment         string    `json:"comment"`
	IsPrimary       bool      `json:"is_primary"`
	CreatedAt       time.Time `json:"created_at"`
	UpdatedAt       time.Time `json:"updated_at"`
}

func viewContact(c billing.Contact) contactView {
	return contactView{
		ClientContactID: c.ID, ClientID: c.ClientID, Name: c.Name, Email: c.Email, Phone: c.Phone,
		Position: c.Position, Comment: c.Comment, IsPrimary: c.IsPrimary, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
	}
}

// clientContactList serves GET /api/v1/clients/{client_id}/contacts.
func (s *Server) clientContactList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]billing.Contact, string, error) {
		return s.Billing.Contacts(c, client(c), page)
	}, each(viewContact))
}

// clientContactCreate serves POST /api/v1/clients/{client_id}/contacts.
func (s *Server) clientContactCreate(c *gin.Context) {
	var req contactFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	ct, err := s.Billing.CreateContact(c, client(c), req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewContact(*ct))
}

// clientContactPatch serves PATCH /api/v1/clients/{client_id}/contacts/{client_contact_id}.
func (s *Server) clientContactPatch(c *gin.Context) {
	var req contactFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	ct, err := s.Billing.PatchContact(c, contact(c), req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewContact(*ct))
}

// clientContactDelete serves DELETE /api/v1/clients/{client_id}/contacts/{client_contact_id}.
func (s *Server) clientContactDelete(c *gin.Context) {
	if err := s.Billing.DeleteContact(c, contact(c)); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

type responsibleFields struct {
	UserID *uuid.UUID `json:"user_id"`
	Role   *string    `json:"role"`
}

func (f responsibleFields) domain() billing.ResponsibleFields {
	return billing.ResponsibleFields{UserID: f.UserID, Role: f.Role}
}

type responsibleView struct {
	ClientResponsibleID uuid.UUID `json:"client_responsible_id"`
	ClientID            uuid.UUID `json:"client_id"`
	UserID              uuid.UUID `json:"user_id"`
	Email               string    `json:"email"`
	Name                string    `json:"name"`
	Role                string    `json:"role"`
	CreatedAt           time.Time `json:"created_at"`
	UpdatedAt           time.Time `json:"updated_at"`
}

func viewResponsible(r billing.ResponsibleView) responsibleView {
	return responsibleView{
		ClientResponsibleID: r.ID, ClientID: r.ClientID, UserID: r.UserID, Email: r.Email, Name: r.Name,
		Role: r.Role, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}

// clientResponsibleList serves GET /api/v1/clients/{client_id}/responsibles.
func (s *Server) clientResponsibleList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]billing.ResponsibleView, string, error) {
		return s.Billing.Responsibles(c, client(c), page)
	}, each(viewResponsible))
}

// clientResponsibleCreate serves POST /api/v1/clients/{client_id}/responsibles.
func (s *Server) clientResponsibleCreate(c *gin.Context) {
	var req responsibleFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	r, err := s.Billing.CreateResponsible(c, client(c), req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusCreated, viewResponsible(*r))
}

// clientResponsiblePatch serves PATCH /api/v1/clients/{client_id}/responsibles/{client_responsible_id}.
func (s *Server) clientResponsiblePatch(c *gin.Context) {
	var req responsibleFields
	if err := httpx.Bind(c, &req); err != nil {
		httpx.WriteError(c, err)
		return
	}
	r, err := s.Billing.PatchResponsible(c, responsible(c), req.domain())
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, viewResponsible(*r))
}

// clientResponsibleDelete serves DELETE /api/v1/clients/{client_id}/responsibles/{client_responsible_id}.
func (s *Server) clientResponsibleDelete(c *gin.Context) {
	if err := s.Billing.DeleteResponsible(c, responsible(c)); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

type clientProjectView struct {
	ClientID    uuid.UUID `json:"client_id"`
	ProjectID   uuid.UUID `json:"project_id"`
	ProjectName string    `json:"project_name"`
	LinkedAt    time.Time `json:"linked_at"`
}

func viewClientProject(p billing.LinkedProject) clientProjectView {
	return clientProjectView{ClientID: p.ClientID, ProjectID: p.ProjectID, ProjectName: p.ProjectName, LinkedAt: p.CreatedAt}
}

// clientProjectList serves GET /api/v1/clients/{client_id}/projects.
func (s *Server) clientProjectList(c *gin.Context) {
	servePage(c, func(page models.PageRequest) ([]billing.LinkedProject, string, error) {
		return s.Billing.ClientProjects(c, client(c), page)
	}, each(viewClientProject))
}

// clientProjectLink serves POST /api/v1/clients/{client_id}/projects/{project_id}: 201 for a
// new link, 200 when they were linked already.
func (s *Server) clientProjectLink(c *gin.Context) {
	projectID, err := httpx.PathID(c, "project_id")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	p, created, err := s.Billing.LinkProject(c, client(c), projectID)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(httpx.CreatedOrOK(created), viewClientProject(*p))
}

// clientProjectUnlink serves DELETE /api/v1/clients/{client_id}/projects/{project_id}.
func (s *Server) clientProjectUnlink(c *gin.Context) {
	projectID, err := httpx.PathID(c, "project_id")
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	if err := s.Billing.UnlinkProject(c, client(c), projectID); err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
