package api

import (
	"context"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/auth"
	"agencyhub/models/automation"
	"agencyhub/models/billing"
	"agencyhub/models/company"
)

const (
	actorKey       = "api.actor"
	accessKey      = "api.access"
	projectKey     = "api.project"
	legalEntityKey = "api.legal_entity"
	workflowKey    = "api.workflow"
	versionKey     = "api.workflow_version"
	runKey         = "api.run"
	bulkKey        = "api.bulk_operation"
	clientKey      = "api.client"
	contactKey     = "api.client_contact"
	responsibleKey = "api.client_responsible"
	serviceKey     = "api.client_service"
	serviceTypeKey = "api.client_service_type"
	paymentKey     = "api.payment_action"
	documentKey    = "api.payment_action_document"
)

func actor(c *gin.Context) *auth.Actor        { return c.MustGet(actorKey).(*auth.Actor) }
func access(c *gin.Context) *company.Access   { return c.MustGet(accessKey).(*company.Access) }
func project(c *gin.Context) *company.Project { return c.MustGet(projectKey).(*company.Project) }
func legalEntity(c *gin.Context) *company.LegalEntity {
	return c.MustGet(legalEntityKey).(*company.LegalEntity)
}

func workflow(c *gin.Context) *automation.Workflow {
	return c.MustGet(workflowKey).(*automation.Workflow)
}
func version(c *gin.Context) *automation.Version { return c.MustGet(versionKey).(*automation.Version) }
func run(c *gin.Context) *automation.Run         { return c.MustGet(runKey).(*automation.Run) }
func bulkOperation(c *gin.Context) *automation.BulkOperation {
	return c.MustGet(bulkKey).(*automation.BulkOperation)
}
func client(c *gin.Context) *billing.Client   { return c.MustGet(clientKey).(*billing.Client) }
func contact(c *gin.Context) *billing.Contact { return c.MustGet(contactKey).(*billing.Contact) }
func responsible(c *gin.Context) *billing.ResponsibleView {
	return c.MustGet(responsibleKey).(*billing.ResponsibleView)
}
func clientService(c *gin.Context) *billing.ClientService {
	return c.MustGet(serviceKey).(*billing.ClientService)
}
func serviceType(c *gin.Context) *billing.ServiceType {
	return c.MustGet(serviceTypeKey).(*billing.ServiceType)
}
func paymentAction(c *gin.Context) *billing.PaymentAction {
	return c.MustGet(paymentKey).(*billing.PaymentAction)
}
func paymentDocument(c *gin.Context) *billing.PaymentActionDocument {
	return c.MustGet(documentKey).(*billing.PaymentActionDocument)
}

// inResource loads the resource a path parameter names together with the caller's
// standing in its company, requires perm, and stores both for the handler. A resource of a
// company the caller is not in is a 404 from load, so 403 only ever tells a member that
// their role is too low.
func inResource[T any](param, key string, perm company.Permission,
	load func(ctx context.Context, userID, id uuid.UUID) (*T, *company.Access, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := httpx.PathID(c, param)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		resource, a, err := load(c, actor(c).UserID, id)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		if !a.Role.Can(perm) {
			httpx.WriteError(c, models.Forbidden("role_too_low"))
			return
		}
		c.Set(accessKey, a)
		c.Set(key, resource)
	}
}

// inCompany loads the company of :company_id with the caller's role and requires perm.
func (s *Server) inCompany(perm company.Permission) gin.HandlerFunc {
	return inResource(
		"company_id",
		accessKey,
		perm,
		func(ctx context.Context, userID, id uuid.UUID) (*company.Access, *company.Access, error) {
			a, err := s.Company.Access(ctx, userID, id)
			return a, a, err
		},
	)
}

// inProject loads the project of :project_id, its company and the caller's role there.
func (s *Server) inProject(perm company.Permission) gin.HandlerFunc {
	return inResource("project_id", projectKey, perm, s.Company.ProjectAccess)
}

// inLegalEntity loads the legal entity of :company_legal_entity_id and the caller's role.
func (s *Server) inLegalEntity(perm company.Permission) gin.HandlerFunc {
	return inResource("company_legal_entity_id", legalEntityKey, perm, s.Company.LegalEntityAccess)
}

// inWorkflow loads the workflow of :workflow_id and the caller's role in its company.
func (s *Server) inWorkflow(perm company.Permission) gin.HandlerFunc {
	return inResource("workflow_id", workflowKey, perm, s.Workflows.WorkflowAccess)
}

// inVersion loads the workflow version of :workflow_version_id.
func (s *Server) inVersion(perm company.Permission) gin.HandlerFunc {
	return inResource("workflow_version_id", versionKey, perm, s.Workflows.VersionAccess)
}

// inRun loads the run of :workflow_run_id.
func (s *Server) inRun(perm company.Permission) gin.HandlerFunc {
	return inResource("workflow_run_id", runKey, perm, s.Workflows.RunAccess)
}

// inBulkOperation loads the bulk operation of :bulk_operation_id and the caller's role in
// its company.
func (s *Server) inBulkOperation(perm company.Permission) gin.HandlerFunc {
	return inResource("bulk_operation_id", bulkKey, perm, s.Workflows.BulkOperationAccess)
}

// inClient loads the client of :client_id and the caller's role in its company.
func (s *Server) inClient(perm company.Permission) gin.HandlerFunc {
	return inResource("client_id", clientKey, perm, s.Billing.ClientAccess)
}

// inNested runs parent, which loads the enclosing resource and checks the caller's role,
// then loads the row the path parameter param names inside it (one outside it is not
// found) and stores it under key.
func inNested[T any](parent gin.HandlerFunc, param, key string, load func(c *gin.Context, id uuid.UUID) (*T, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		if parent(c); c.IsAborted() {
			return
		}
		id, err := httpx.PathID(c, param)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		row, err := load(c, id)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		c.Set(key, row)
	}
}

// inClientResource loads a row of the client of :client_id named by the path parameter param.
func inClientResource[T any](s *Server, param, key string, perm company.Permission,
	load func(ctx context.Context, client *billing.Client, id uuid.UUID) (*T, error)) gin.HandlerFunc {
	return inNested(s.inClient(perm), param, key, func(c *gin.Context, id uuid.UUID) (*T, error) { return load(c, client(c), id) })
}

// inContact loads the contact of :client_contact_id of the client of :client_id.
func (s *Server) inContact(perm company.Permission) gin.HandlerFunc {
	return inClientResource(s, "client_contact_id", contactKey, perm, s.Billing.ContactOf)
}

// inResponsible loads the responsible of :client_responsible_id of the client of :client_id.
func (s *Server) inResponsible(perm company.Permission) gin.HandlerFunc {
	return inClientResource(s, "client_responsible_id", responsibleKey, perm, s.Billing.ResponsibleOf)
}

// inClientService loads the client service of :client_service_id and the caller's role.
func (s *Server) inClientService(perm company.Permission) gin.HandlerFunc {
	return inResource("client_service_id", serviceKey, perm, s.Billing.ClientServiceAccess)
}

// inPaymentAction loads the payment action of :payment_action_id and the caller's role.
func (s *Server) inPaymentAction(perm company.Permission) gin.HandlerFunc {
	return inResource("payment_action_id", paymentKey, perm, s.Billing.PaymentActionAccess)
}

// inPaymentDocument loads the document of :payment_action_document_id and the caller's role.
func (s *Server) inPaymentDocument(perm company.Permission) gin.HandlerFunc {
	return inResource("payment_action_document_id", documentKey, perm, s.Billing.DocumentAccess)
}

// inProjectServiceType loads the service type of :client_service_type_id seen in the
// project of :project_id: a global one, its company's or its own.
func (s *Server) inProjectServiceType(perm company.Permission) gin.HandlerFunc {
	return inProjectResource(s, "client_service_type_id", serviceTypeKey, perm,
		func(ctx context.Context, companyID, projectID, id uuid.UUID) (*billing.ServiceType, error) {
			return s.Billing.ServiceTypeIn(ctx, companyID, &projectID, id)
		})
}

// inCompanyServiceType loads the service type of :client_service_type_id of the company of
// :company_id: a global one, its own or one of its projects'.
func (s *Server) inCompanyServiceType(perm company.Permission) gin.HandlerFunc {
	return inNested(
		s.inCompany(perm),
		"client_service_type_id",
		serviceTypeKey,
		func(c *gin.Context, id uuid.UUID) (*billing.ServiceType, error) {
			return s.Billing.ServiceTypeIn(c, access(c).Company.ID, nil, id)
		},
	)
}
