package api

import (
	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
	"agencyhub/models/company"
)

// routes is the whole HTTP surface, one line per operation, grouped as the specification
// groups them. Middleware on a line loads the parent resource and checks the caller's role.
func (s *Server) routes(r *gin.Engine) {
	read, work, manage := company.PermRead, company.PermWork, company.PermManage
	// The shape of a request is checked first, before credentials, roles and state.
	r.Use(httpx.CheckRequest)

	// Health and docs: public.
	r.GET("/healthz", s.healthz)
	v1 := r.Group("/api/v1")
	r.GET("/reference", s.consolePage)
	r.GET("/docs", s.docsReferenceRedirect)
	r.HEAD("/reference", s.consolePage)
	r.HEAD("/docs", s.docsReferenceRedirect)
	v1.GET("/docs", s.docsReferenceRedirect)
	v1.GET("/docs/openapi.yaml", s.docsOpenAPIYAML)
	v1.GET("/docs/openapi.json", s.docsOpenAPIJSON)
	v1.GET("/docs/endpoints", s.docsEndpoints)
	v1.GET("/docs/testing/collection", s.docsTestingCollection)
	v1.GET("/docs/testing/collection.json", s.docsTestingCollectionDownload)
	// Patch importer and integration docs.
	v1.GET("/docs/ai-tools.json", s.docsAITools)
	v1.GET("/docs/integrations/search", s.docsIntegrationSearch)
	v1.GET("/docs/integrations/:public_slug.md", s.docsIntegrationMarkdown) // .md is part of the parameter; see httpx.TemplatePath
	v1.GET("/providers/catalog", s.providerCatalog)
	// Stored files: the token of a signed download link is the credential.
	v1.GET("/files/:file_token", s.fileDownload)

	// Auth: public sign-in steps.
	v1.POST("/auth/register", s.authRegister)
	v1.POST("/auth/activate", s.authActivate)
	v1.POST("/auth/login", s.authLogin)
	v1.POST("/auth/refresh", s.authRefresh)
	v1.GET("/auth/refresh/csrf", s.authRefreshCSRF)
	v1.POST("/auth/password-reset/request", s.authPasswordResetRequest)
	v1.POST("/auth/password-reset/confirm", s.authPasswordResetConfirm)
	v1.GET("/auth/providers", s.authProviders)
	v1.GET("/auth/oauth/:provider/start", s.authOAuthStart)
	v1.GET("/auth/oauth/:provider/callback", s.authOAuthCallback)
	v1.POST("/auth/native/exchange", s.authNativeExchange)
	v1.POST("/auth/device/refresh", s.authDeviceRefresh)
	v1.POST("/invitations/lookup", s.invitationLookup)
	v1.POST("/desktop/auth/start", s.desktopAuthStart)
	v1.POST("/desktop/auth/poll", s.desktopAuthPoll)
	v1.GET("/approval-links/:approval_id/:token", s.approvalLinkGet)
	v1.POST("/approval-links/:approval_id/:token", s.approvalLinkDecide)

	// Auth and workspace: the signed-in caller.
	me := v1.Group("", s.authenticate)
	me.GET("/auth/csrf", s.authCSRF)
	me.POST("/auth/logout", s.authLogout)
	me.GET("/auth/me", s.authMe)
	me.PATCH("/auth/profile", s.authProfilePatch)
	me.GET("/auth/sessions", s.authSessionList)
	me.DELETE("/auth/sessions/:session_id", s.authSessionDelete)
	me.GET("/auth/api-keys", s.apiKeyList)
	me.POST("/auth/api-keys", s.apiKeyCreate)
	me.DELETE("/auth/api-keys/:api_key_id", s.apiKeyDelete)
	me.GET("/auth/workspace-context", s.workspaceContextGet)
	me.PUT("/auth/workspace-context", s.workspaceContextPut)
	me.POST("/desktop/auth/approve", s.desktopAuthApprove)
	me.POST("/desktop/auth/deny", s.desktopAuthDeny)

	// Desktop: the caller's own inbox.
	me.GET("/desktop/messages", s.desktopMessages)
	me.GET("/desktop/messages/stream", s.desktopMessagesStream)
	me.POST("/desktop/messages/:desktop_message_id/ack", s.desktopMessageAck)

	// Catalogs.
	me.GET("/action-types", s.actionTypeList)
	me.GET("/action-types/:action_type_key", s.actionTypeGet)
	me.GET("/action-dependency-types", s.actionDependencyTypeList)
	me.GET("/action-dependency-types/:dependency_type_key", s.actionDependencyTypeGet)

	// Companies and projects.
	me.GET("/companies", s.companyList)
	me.POST("/companies", s.companyCreate)
	me.GET("/companies/:company_id", s.inCompany(read), s.companyGet)
	me.PATCH("/companies/:company_id", s.inCompany(manage), s.companyPatch)
	me.POST("/companies/:company_id/switch", s.inCompany(read), s.companySwitch)
	me.GET("/companies/:company_id/members", s.inCompany(read), s.companyMemberList)
	me.POST("/companies/:company_id/members", s.inCompany(manage), s.companyMemberCreate)
	me.PATCH("/companies/:company_id/members/:user_id", s.inCompany(manage), s.companyMemberPatch)
	me.DELETE("/companies/:company_id/members/:user_id", s.inCompany(manage), s.companyMemberDelete)
	me.GET("/companies/:company_id/invitations", s.inCompany(read), s.companyInvitationList)
	me.POST("/companies/:company_id/invitations", s.inCompany(manage), s.companyInvitationCreate)
	me.DELETE("/companies/:company_id/invitations/:invitation_id", s.inCompany(manage), s.companyInvitationDelete)
	me.POST("/invitations/accept", s.invitationAccept)
	me.GET("/companies/:company_id/legal-entities", s.inCompany(read), s.legalEntityList)
	me.POST("/companies/:company_id/legal-entities", s.inCompany(manage), s.legalEntityCreate)
	me.GET("/company-legal-entities/:company_legal_entity_id", s.inLegalEntity(read), s.legalEntityGet)
	me.PATCH("/company-legal-entities/:company_legal_entity_id", s.inLegalEntity(manage), s.legalEntityPatch)
	me.DELETE("/company-legal-entities/:company_legal_entity_id", s.inLegalEntity(manage), s.legalEntityDelete)
	me.GET("/companies/:company_id/projects", s.inCompany(read), s.projectList)
	me.POST("/companies/:company_id/projects", s.inCompany(work), s.projectCreate)
	me.GET("/projects/:project_id", s.inProject(read), s.projectGet)
	me.PATCH("/projects/:project_id", s.inProject(work), s.projectPatch)
	me.POST("/projects/:project_id/hook-secret/rotate", s.inProject(manage), s.projectHookSecretRotate)

	// Clients and billing.
	me.GET("/companies/:company_id/clients", s.inCompany(read), s.clientList)
	me.POST("/companies/:company_id/clients", s.inCompany(work), s.clientCreate)
	me.POST("/companies/:company_id/clients/party-lookup/find-party", s.inCompany(work), s.clientPartyLookupFindParty)
	me.GET("/companies/:company_id/integrations/party-lookup", s.inCompany(read), s.companyPartyLookupIntegrationGet)
	me.PUT("/companies/:company_id/integrations/party-lookup", s.inCompany(manage), s.companyPartyLookupIntegrationSave)
	me.GET("/projects/:project_id/integrations/party-lookup", s.inProject(read), s.projectPartyLookupIntegrationGet)
	me.PUT("/projects/:project_id/integrations/party-lookup", s.inProject(manage), s.projectPartyLookupIntegrationSave)
	me.GET("/clients/:client_id", s.inClient(read), s.clientGet)
	me.PATCH("/clients/:client_id", s.inClient(work), s.clientPatch)
	me.DELETE("/clients/:client_id", s.inClient(work), s.clientDelete)
	me.GET("/clients/:client_id/contacts", s.inClient(read), s.clientContactList)
	me.POST("/clients/:client_id/contacts", s.inClient(work), s.clientContactCreate)
	me.PATCH("/clients/:client_id/contacts/:client_contact_id", s.inContact(work), s.clientContactPatch)
	me.DELETE("/clients/:client_id/contacts/:client_contact_id", s.inContact(work), s.clientContactDelete)
	me.GET("/clients/:client_id/responsibles", s.inClient(read), s.clientResponsibleList)
	me.POST("/clients/:client_id/responsibles", s.inClient(work), s.clientResponsibleCreate)
	me.PATCH("/clients/:client_id/responsibles/:client_responsible_id", s.inResponsible(work), s.clientResponsiblePatch)
	me.DELETE("/clients/:client_id/responsibles/:client_responsible_id", s.inResponsible(work), s.clientResponsibleDelete)
	me.GET("/clients/:client_id/projects", s.inClient(read), s.clientProjectList)
	me.POST("/clients/:client_id/projects/:project_id", s.inClient(work), s.clientProjectLink)
	me.DELETE("/clients/:client_id/projects/:project_id", s.inClient(work), s.clientProjectUnlink)
	me.GET("/clients/:client_id/services", s.inClient(read), s.clientServiceList)
	me.POST("/clients/:client_id/services", s.inClient(work), s.clientServiceCreate)
	me.GET("/client-services/:client_service_id", s.inClientService(read), s.clientServiceGet)
	me.PATCH("/client-services/:client_service_id", s.inClientService(work), s.clientServicePatch)
	me.DELETE("/client-services/:client_service_id", s.inClientService(work), s.clientServiceDelete)
	me.POST("/client-services/:client_service_id/bill-now", s.inClientService(work), s.clientServiceBillNow)
	me.GET("/client-service-types", s.clientServiceTypeList)
	me.POST("/companies/:company_id/client-service-types", s.inCompany(manage), s.companyClientServiceTypeCreate)
	me.PATCH(
		"/companies/:company_id/client-service-types/:client_service_type_id",
		s.inCompanyServiceType(manage),
		s.companyClientServiceTypePatch,
	)
	me.DELETE(
		"/companies/:company_id/client-service-types/:client_service_type_id",
		s.inCompanyServiceType(manage),
		s.companyClientServiceTypeArchive,
	)
	me.GET("/projects/:project_id/client-service-types", s.inProject(read), s.projectClientServiceTypeList)
	me.POST("/projects/:project_id/client-service-types", s.inProject(work), s.projectClientServiceTypeCreate)
	me.PATCH(
		"/projects/:project_id/client-service-types/:client_service_type_id",
		s.inProjectServiceType(work),
		s.projectClientServiceTypePatch,
	)
	me.DELETE(
		"/projects/:project_id/client-service-types/:client_service_type_id",
		s.inProjectServiceType(work),
		s.projectClientServiceTypeArchive,
	)
	me.GET("/clients/:client_id/payment-actions", s.inClient(read), s.clientPaymentActionList)
	me.POST("/clients/:client_id/payments/manual", s.inClient(work), s.clientManualPaymentRecord)
	me.GET("/projects/:project_id/payment-actions", s.inProject(read), s.projectPaymentActionList)
	me.POST("/projects/:project_id/payment-actions/manual", s.inProject(work), s.projectPaymentActionManualCreate)
	me.GET("/projects/:project_id/payment-schedule", s.inProject(read), s.projectPaymentSchedule)
	me.GET("/payment-actions/:payment_action_id", s.inPaymentAction(read), s.paymentActionGet)
	me.POST("/payment-actions/:payment_action_id/confirm", s.inPaymentAction(work), s.paymentActionConfirm)
	me.POST("/payment-actions/:payment_action_id/snooze", s.inPaymentAction(work), s.paymentActionSnooze)
	me.GET("/payment-actions/:payment_action_id/documents", s.inPaymentAction(read), s.paymentActionDocumentList)
	me.POST("/payment-actions/:payment_action_id/documents", s.inPaymentAction(work), s.paymentActionDocumentCreate)
	me.GET("/payment-action-documents/:payment_action_document_id", s.inPaymentDocument(read), s.paymentActionDocumentGet)

	// Workflows, versions and runs.
	me.GET("/projects/:project_id/workflows", s.inProject(read), s.workflowList)
	me.POST("/projects/:project_id/workflows", s.inProject(work), s.workflowCreate)
	me.GET("/workflows/:workflow_id", s.inWorkflow(read), s.workflowGet)
	me.PATCH("/workflows/:workflow_id", s.inWorkflow(work), s.workflowPatch)
	me.PUT("/workflows/:workflow_id/draft", s.inWorkflow(work), s.workflowPutDraft)
	me.POST("/workflows/:workflow_id/validate", s.inWorkflow(read), s.workflowValidate)
	me.POST("/workflows/:workflow_id/publish", s.inWorkflow(work), s.workflowPublish)
	me.GET("/workflows/:workflow_id/versions", s.inWorkflow(read), s.workflowVersions)
	me.GET("/workflow-versions/:workflow_version_id", s.inVersion(read), s.workflowVersionGet)
	me.POST("/workflows/:workflow_id/versions/:workflow_version_id/restore", s.inWorkflow(work), s.workflowVersionRestore)
	me.POST("/workflows/:workflow_id/test-runs", s.inWorkflow(work), s.workflowTestRunCreate)
	me.POST("/workflows/:workflow_id/runs/manual", s.inWorkflow(work), s.runManual)
	me.GET("/workflows/:workflow_id/runs", s.inWorkflow(read), s.runList)
	me.GET("/projects/:project_id/runs", s.inProject(read), s.projectRunList)
	me.POST("/projects/:project_id/runs/bulk-preview", s.inProject(read), s.runBulkPreview)
	me.POST("/projects/:project_id/runs/bulk", s.inProject(work), s.runBulk)
	me.GET("/projects/:project_id/bulk-operations", s.inProject(read), s.bulkOperationList)
	me.GET("/bulk-operations/:bulk_operation_id", s.inBulkOperation(read), s.bulkOperationGet)
	me.POST("/bulk-operations/:bulk_operation_id/cancel", s.inBulkOperation(work), s.bulkOperationCancel)
	me.GET("/runs/:workflow_run_id", s.inRun(read), s.runGet)
	me.GET("/runs/:workflow_run_id/graph", s.inRun(read), s.runGraph)
	me.GET("/runs/:workflow_run_id/actions", s.inRun(read), s.runActions)
	me.GET("/runs/:workflow_run_id/loops/:loop_key/items", s.inRun(read), s.runLoopItems)
	me.GET("/runs/:workflow_run_id/loops/:loop_key/items/:item_index", s.inRun(read), s.runLoopItem)
	me.GET("/runs/:workflow_run_id/events", s.inRun(read), s.runEvents)
	me.GET("/runs/:workflow_run_id/events/stream", s.inRun(read), s.runEventsStream)
	me.POST("/runs/:workflow_run_id/cancel", s.inRun(work), s.runCancel)
	me.POST("/runs/:workflow_run_id/replay", s.inRun(work), s.runReplay)
	me.POST("/runs/:workflow_run_id/retry-action", s.inRun(work), s.runRetryAction)
	me.POST("/schedules/preview", s.schedulePreview)
	me.GET("/runs/:workflow_run_id/retry-preview", s.inRun(read), s.runRetryPreview)
	me.GET("/runs/:workflow_run_id/approvals", s.inRun(read), s.runApprovals)
	me.GET("/approvals", s.approvalsWaiting)
	me.POST("/approvals/:approval_id/decision", s.approvalDecide)
	me.GET("/runs/:workflow_run_id/replay-preview", s.inRun(read), s.runReplayPreview)

	// Integrations and templates.
	me.GET("/projects/:project_id/action-dependencies", s.inProject(read), s.actionDependencyList)
	me.POST("/projects/:project_id/action-dependencies", s.inProject(manage), s.actionDependencyCreate)
	me.GET("/projects/:project_id/action-dependencies/:action_dependency_id", s.inActionDependency(read), s.actionDependencyGet)
	me.PATCH("/projects/:project_id/action-dependencies/:action_dependency_id", s.inActionDependency(manage), s.actionDependencyPatch)
	me.DELETE("/projects/:project_id/action-dependencies/:action_dependency_id", s.inActionDependency(manage), s.actionDependencyDelete)
	me.POST(
		"/projects/:project_id/action-dependencies/:action_dependency_id/rotate-secret",
		s.inActionDependency(manage),
		s.actionDependencyRotateSecret,
	)
	me.POST("/projects/:project_id/action-dependencies/:action_dependency_id/test", s.inActionDependency(manage), s.actionDependencyTest)
	me.GET("/projects/:project_id/email-templates", s.inProject(read), s.emailTemplateList)
	me.POST("/projects/:project_id/email-templates", s.inProject(work), s.emailTemplateCreate)
	me.GET("/projects/:project_id/email-templates/:email_template_id", s.inEmailTemplate(read), s.emailTemplateGet)
	me.PATCH("/projects/:project_id/email-templates/:email_template_id", s.inEmailTemplate(work), s.emailTemplatePatch)
	me.DELETE("/projects/:project_id/email-templates/:email_template_id", s.inEmailTemplate(work), s.emailTemplateDelete)
	me.GET("/projects/:project_id/message-templates", s.inProject(read), s.messageTemplateList)
	me.POST("/projects/:project_id/message-templates", s.inProject(work), s.messageTemplateCreate)
	me.GET("/projects/:project_id/message-templates/:message_template_id", s.inMessageTemplate(read), s.messageTemplateGet)
	me.PATCH("/projects/:project_id/message-templates/:message_template_id", s.inMessageTemplate(work), s.messageTemplatePatch)
	me.DELETE("/projects/:project_id/message-templates/:message_template_id", s.inMessageTemplate(work), s.messageTemplateDelete)

	// Messenger relay.
	me.GET("/projects/:project_id/action-dependencies/:action_dependency_id/messenger_a-relay", s.inActionDependency(read), s.relayGet)
	me.POST(
		"/projects/:project_id/action-dependencies/:action_dependency_id/messenger_a-relay-polling",
		s.inActionDependency(manage),
		s.relayPolling,
	)
	me.POST(
		"/projects/:project_id/action-dependencies/:action_dependency_id/messenger_a-relay-webhook-secret/rotate",
		s.inActionDependency(manage),
		s.relayWebhookSecretRotate,
	)
	me.POST("/messenger_a/relay/:relay_key", s.inRelay(work), s.relayDeliverAPI)
	me.POST("/messenger_a/bot-api/:relay_key/:method", s.inRelay(work), s.botAPIProxy)
	r.POST("/messenger_a/relay/:relay_key", s.relayDeliverPublic)

	// Webhooks.
	me.GET("/workflows/:workflow_id/webhook-endpoints", s.inWorkflow(read), s.webhookEndpointList)
	me.POST("/workflows/:workflow_id/webhook-endpoints", s.inWorkflow(manage), s.webhookEndpointCreate)
	me.GET("/webhook-endpoints/:webhook_endpoint_id", s.inWebhookEndpoint(read), s.webhookEndpointGet)
	me.PATCH("/webhook-endpoints/:webhook_endpoint_id", s.inWebhookEndpoint(manage), s.webhookEndpointPatch)
	me.GET("/webhook-endpoints/:webhook_endpoint_id/snippets", s.inWebhookEndpoint(read), s.webhookSnippets)
	me.POST("/webhook-endpoints/:webhook_endpoint_id/rotate-secret", s.inWebhookEndpoint(manage), s.webhookEndpointRotateSecret)
	me.GET("/webhook-endpoints/:webhook_endpoint_id/events", s.inWebhookEndpoint(read), s.webhookEventList)
	me.GET("/webhook-events/:webhook_event_id", s.inWebhookEvent(read), s.webhookEventGet)
	me.POST("/webhook-events/:webhook_event_id/replay", s.inWebhookEvent(work), s.webhookEventReplay)
	r.POST("/hooks/:hook_key/:endpoint_key", s.hookIngest)
	r.GET("/hooks/:hook_key/:endpoint_key/runs/:workflow_run_id/receipt", s.hookReceipt)

	// Site chat sockets and the widget script (docs/site-chat-sockets.md).
	r.GET("/site-chat/widget.js", s.siteChatWidgetScript)
	r.GET("/site-chat/cobrowse.js", s.siteChatCobrowseScript)
	r.GET("/site-chat/cobrowse-view.html", s.siteChatCobrowseView)
	v1.GET("/public/site-chat/ws", s.siteChatPublicWebSocket)
	me.GET("/site-chat/ws/operator", s.siteChatOperatorWebSocket)

	// Site chat.
	v1.GET("/public/site-chat/widgets/:public_key/config", s.siteChatPublicConfig)
	v1.POST("/public/site-chat/presence", s.siteChatPresence)
	v1.POST("/public/site-chat/events", s.siteChatEvents)
	v1.POST("/public/site-chat/conversations", s.siteChatPublicConversationCreate)
	v1.POST("/public/site-chat/messages", s.siteChatPublicMessageCreate)
	v1.GET("/public/site-chat/conversations/:conversation_id/messages", s.siteChatPublicMessageList)
	v1.POST("/public/site-chat/conversations/:conversation_id/attachments", s.siteChatPublicAttachmentCreate)
	v1.POST("/public/site-chat/calls/request", s.siteChatPublicCallRequest)
	v1.POST("/public/site-chat/calls/:call_session_id/accept", s.siteChatPublicCallAccept)
	v1.POST("/public/site-chat/calls/:call_session_id/reject", s.siteChatPublicCallReject)
	v1.POST("/public/site-chat/calls/:call_session_id/end", s.siteChatPublicCallEnd)
	v1.GET("/public/site-chat/voice-config", s.siteChatPublicVoiceConfig)
	v1.GET("/site-chat/attachments/:attachment_id/:download_token", s.siteChatAttachmentDownload)
	me.GET("/projects/:project_id/site-chat-widgets", s.inProject(read), s.siteChatWidgetList)
	me.POST("/projects/:project_id/site-chat-widgets", s.inProject(manage), s.siteChatWidgetCreate)
	me.PATCH("/site-chat-widgets/:chat_widget_id", s.inChatWidget(manage), s.siteChatWidgetPatch)
	me.GET("/projects/:project_id/site-visitors/active", s.inProject(read), s.siteChatActiveVisitors)
	me.POST("/site-visit-sessions/:visit_session_id/monitoring/start", s.inVisitSession(work), s.siteChatMonitoringStart)
	me.POST("/site-visit-sessions/:visit_session_id/monitoring/stop", s.inVisitSession(work), s.siteChatMonitoringStop)
	me.POST("/site-visit-sessions/:visit_session_id/invite", s.inVisitSession(work), s.siteChatVisitorInvite)
	me.POST("/site-visit-sessions/:visit_session_id/call-offer", s.inVisitSession(work), s.siteChatOperatorCallOffer)
	me.GET("/site-visit-sessions/:visit_session_id/calls", s.inVisitSession(read), s.siteChatVisitCalls)
	me.GET("/site-visit-sessions/:visit_session_id/events", s.inVisitSession(read), s.siteChatVisitEvents)
	me.GET("/site-visit-sessions/:visit_session_id", s.inVisitSession(read), s.siteChatVisitSession)
	me.GET("/site-visit-sessions/:visit_session_id/snapshot", s.inVisitSession(read), s.siteChatVisitSnapshot)
	me.POST("/site-chat/calls/:call_session_id/accept", s.inCallSession(work), s.siteChatOperatorCallAccept)
	me.POST("/site-chat/calls/:call_session_id/reject", s.inCallSession(work), s.siteChatOperatorCallReject)
	me.POST("/site-chat/calls/:call_session_id/end", s.inCallSession(work), s.siteChatOperatorCallEnd)
	me.GET("/site-chat/calls/:call_session_id/recordings", s.inCallSession(read), s.siteChatCallRecordings)
	me.POST("/site-chat/calls/:call_session_id/recordings", s.inCallSession(work), s.siteChatCallRecordingCreate)
	me.GET("/projects/:project_id/site-chat-conversations", s.inProject(read), s.siteChatConversationList)
	me.GET("/site-chat-conversations/:conversation_id", s.inConversation(read), s.siteChatConversationGet)
	me.PATCH("/site-chat-conversations/:conversation_id", s.inConversation(work), s.siteChatConversationPatch)
	me.POST("/site-chat-conversations/:conversation_id/read", s.inConversation(read), s.siteChatConversationRead)
	me.GET("/site-chat-conversations/:conversation_id/messages", s.inConversation(read), s.siteChatMessageList)
	me.POST("/site-chat-conversations/:conversation_id/messages", s.inConversation(work), s.siteChatMessageCreate)
	me.POST("/site-chat-conversations/:conversation_id/attachments", s.inConversation(work), s.siteChatAttachmentCreate)
	me.GET("/site-chat/voice-config", s.siteChatVoiceConfig)

	// AI employee.
	v1.GET("/ai/runtime/readiness", s.aiRuntimeReadiness)
	v1.GET("/ai/agent/readiness", s.aiRuntimeReadiness)
	v1.GET("/ai/runtime/capabilities", s.aiRuntimeCapabilities)
	me.GET("/projects/:project_id/ai/employee", s.inProject(read), s.aiEmployeeGet)
	me.PATCH("/projects/:project_id/ai/employee", s.inProject(manage), s.aiEmployeePatch)
	me.GET("/projects/:project_id/ai/employee/capability", s.inProject(read), s.aiEmployeeCapability)
	me.POST("/projects/:project_id/ai/employee/sessions", s.inProject(read), s.aiEmployeeSessionCreate)
	me.GET("/projects/:project_id/ai/employee/sessions/:session_id", s.inAISession(read), s.aiEmployeeSessionGet)
	me.POST("/projects/:project_id/ai/employee/sessions/:session_id/cancel", s.inAISession(read), s.aiEmployeeSessionCancel)
	me.POST("/projects/:project_id/ai/employee/sessions/:session_id/messages", s.inAISession(read), s.aiEmployeeMessagePost)
	me.POST("/projects/:project_id/ai/employee/sessions/:session_id/messages/stream", s.inAISession(read), s.aiEmployeeMessageStream)
	me.GET("/projects/:project_id/ai/model-providers", s.inProject(read), s.aiModelProviders)
	me.PATCH("/projects/:project_id/ai/tool-calls/:tool_call_id", s.inAIToolCall(work), s.aiToolCallPatch)
	me.POST("/projects/:project_id/ai/tool-calls/:tool_call_id/approve", s.inAIToolCall(work), s.aiToolCallApprove)
	me.POST("/projects/:project_id/ai/tool-calls/:tool_call_id/reject", s.inAIToolCall(work), s.aiToolCallReject)
	me.GET("/projects/:project_id/action-dependencies/:action_dependency_id/models", s.inActionDependency(read), s.aiModelsByDependency)
	me.POST(
		"/projects/:project_id/action-dependencies/:action_dependency_id/models/evaluate",
		s.inActionDependency(manage),
		s.aiModelsEvaluate,
	)
	me.POST("/projects/:project_id/action-dependencies/:action_dependency_id/models/refresh", s.inActionDependency(manage), s.aiModelsRefresh)

	// Work tracker: the caller's active company for operations that name no resource.
	wk := me.Group("/work")
	wk.GET("/access", s.inWorkspace, s.workAccessGet)
	wk.GET("/overview", s.inWorkspace, s.workOverview)
	wk.GET("/presets", s.inWorkspace, s.workPresets)
	wk.GET("/reports", s.inWorkspace, s.workReports)
	wk.GET("/employees", s.inWorkspace, s.workEmployeeList)
	wk.POST("/projects/:project_id/members", s.inProject(read), s.workProjectMemberCreate)
	wk.GET("/boards", s.inWorkspace, s.workBoardList)
	wk.POST("/boards", s.inWorkspace, s.workBoardCreate)
	wk.GET("/boards/:task_board_id", s.inTaskBoard(), s.workBoardGet)
	wk.GET("/tasks", s.inWorkspace, s.workTaskList)
	wk.POST("/tasks", s.inWorkspace, s.workTaskCreate)
	wk.GET("/tasks/:task_id", s.inTask(), s.workTaskGet)
	wk.PATCH("/tasks/:task_id", s.inTask(), s.workTaskPatch)
	wk.POST("/tasks/:task_id/move", s.inTask(), s.workTaskMove)
	wk.POST("/tasks/:task_id/comments", s.inTask(), s.workTaskCommentCreate)
	wk.GET("/tasks/:task_id/attachments", s.inTask(), s.workTaskAttachmentList)
	wk.POST("/tasks/:task_id/attachments", s.inTask(), s.workTaskAttachmentCreate)
	wk.GET("/task-attachments/:task_attachment_id", s.inTaskAttachment(), s.workTaskAttachmentGet)
	wk.POST("/tasks/:task_id/checklist", s.inTask(), s.workTaskChecklistCreate)
	wk.PATCH("/tasks/:task_id/checklist/:task_checklist_item_id", s.inChecklistItem(), s.workTaskChecklistPatch)
	wk.PUT("/tasks/:task_id/custom-fields/:task_custom_field_id", s.inTaskCustomField(), s.workTaskCustomFieldPut)
	wk.GET("/task-workflows", s.inWorkspace, s.workTaskWorkflowList)
	wk.POST("/task-workflows", s.inWorkspace, s.workTaskWorkflowCreate)
	wk.GET("/task-workflows/:task_workflow_id/roles", s.inTaskWorkflow(), s.workTaskWorkflowRoleList)
	wk.POST("/task-workflows/:task_workflow_id/roles", s.inTaskWorkflow(), s.workTaskWorkflowRoleCreate)
	wk.PATCH("/task-workflows/:task_workflow_id/roles/:task_process_role_id", s.inProcessRole(), s.workTaskWorkflowRolePatch)
	wk.POST("/task-workflows/:task_workflow_id/roles/reset", s.inTaskWorkflow(), s.workTaskWorkflowRoleReset)
	wk.GET("/time", s.inWorkspace, s.workTimeList)
	wk.POST("/time", s.inWorkspace, s.workTimeCreate)
	wk.GET("/timer/active", s.inWorkspace, s.workTimerActive)
	wk.POST("/tasks/:task_id/timer/start", s.inTask(), s.workTaskTimerStart)
	wk.POST("/timer/stop", s.inWorkspace, s.workTimerStop)

	// Patch importer and integration docs.
	me.POST("/workflows/:workflow_id/ai-import", s.inWorkflow(work), s.workflowAIImport)
	me.GET("/workflows/:workflow_id/ai-context", s.inWorkflow(read), s.workflowAIContext)
	me.GET("/projects/:project_id/integration-docs/search", s.inProject(read), s.projectIntegrationDocsSearch)
}
