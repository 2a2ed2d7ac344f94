import { createBrowserRouter, Navigate } from "react-router";
import { Layout } from "./Layout";
import { Loading } from "./Loading";
import { NotFoundPage } from "./NotFoundPage";
import { RequireSession } from "../features/auth/RequireSession";

/** signInPath is the sign-in page that returns to `next` afterwards. */
export function signInPath(next: string): string {
  return next && next !== "/" ? `/sign-in?next=${encodeURIComponent(next)}` : "/sign-in";
}

// Pages load by route, so the sign-in page does not carry the editor's script; the first
// page's chunk loads behind the loading line.
export const router = createBrowserRouter([
  {
    HydrateFallback: Loading,
    children: [
  { path: "/sign-in", lazy: () => import("../features/auth/SignInPage").then((m) => ({ Component: m.SignInPage })) },
  { path: "/register", lazy: () => import("../features/auth/RegisterPage").then((m) => ({ Component: m.RegisterPage })) },
  { path: "/activate", lazy: () => import("../features/auth/ActivatePage").then((m) => ({ Component: m.ActivatePage })) },
  // The API reference reads the contract built into the page: nobody needs to sign in for it.
  { path: "/reference", lazy: () => import("../features/reference/ReferencePage").then((m) => ({ Component: m.ReferencePage })) },
  {
    path: "/reset-password",
    lazy: () => import("../features/auth/ResetPasswordPage").then((m) => ({ Component: m.ResetPasswordPage })),
  },
  // A signed decide link opens here, for someone without an account.
  {
    path: "/approve/:approvalId/:token",
    lazy: () => import("../features/runs/ApprovalLinkPage").then((m) => ({ Component: m.ApprovalLinkPage })),
  },
  {
    path: "/invitations/accept",
    lazy: () => import("../features/auth/InvitationAcceptPage").then((m) => ({ Component: m.InvitationAcceptPage })),
  },
  {
    element: <RequireSession />,
    children: [
      {
        element: <Layout />,
        children: [
          { index: true, element: <Navigate to="/workflows" replace /> },
          {
            path: "setup",
            lazy: () => import("../features/workspace/SetupWorkspace").then((m) => ({ Component: m.SetupWorkspace })),
          },
          { path: "device", lazy: () => import("../features/auth/DevicePage").then((m) => ({ Component: m.DevicePage })) },
          {
            path: "workflows",
            lazy: () => import("../features/workflows/WorkflowsPage").then((m) => ({ Component: m.WorkflowsPage })),
          },
          {
            path: "workflows/:workflowId",
            lazy: () => import("../features/editor/EditorPage").then((m) => ({ Component: m.EditorPage })),
          },
          {
            path: "workflows/:workflowId/versions",
            lazy: () => import("../features/workflows/VersionsPage").then((m) => ({ Component: m.VersionsPage })),
          },
          {
            path: "workflows/:workflowId/import",
            lazy: () => import("../features/workflows/PatchImportPage").then((m) => ({ Component: m.PatchImportPage })),
          },
          {
            path: "workflows/:workflowId/webhooks",
            lazy: () => import("../features/webhooks/WebhooksPage").then((m) => ({ Component: m.WebhooksPage })),
          },
          {
            path: "workflows/:workflowId/runs",
            lazy: () => import("../features/runs/RunsPage").then((m) => ({ Component: m.RunsPage })),
          },
          { path: "runs", lazy: () => import("../features/runs/RunsPage").then((m) => ({ Component: m.RunsPage })) },
          { path: "approvals", lazy: () => import("../features/runs/ApprovalsPage").then((m) => ({ Component: m.ApprovalsPage })) },
          {
            path: "runs/:runId",
            lazy: () => import("../features/runs/RunInspectorPage").then((m) => ({ Component: m.RunInspectorPage })),
          },
          // Clients and billing (billing-ui).
          {
            path: "companies/:companyId/clients",
            lazy: () => import("../features/clients/ClientsPage").then((m) => ({ Component: m.ClientsPage })),
          },
          {
            path: "companies/:companyId/clients/new",
            lazy: () => import("../features/clients/NewClientPage").then((m) => ({ Component: m.NewClientPage })),
          },
          { path: "clients/:clientId", lazy: () => import("../features/clients/ClientPage").then((m) => ({ Component: m.ClientPage })) },
          {
            path: "companies/:companyId/legal-entities",
            lazy: () => import("../features/legal-entities/LegalEntitiesPage").then((m) => ({ Component: m.LegalEntitiesPage })),
          },
          {
            path: "projects/:projectId/billing",
            lazy: () => import("../features/billing/PaymentQueuePage").then((m) => ({ Component: m.PaymentQueuePage })),
          },
          {
            path: "projects/:projectId/billing/schedule",
            lazy: () => import("../features/billing/PaymentSchedulePage").then((m) => ({ Component: m.PaymentSchedulePage })),
          },
          {
            path: "projects/:projectId/billing/service-types",
            lazy: () => import("../features/billing/ServiceTypesPage").then((m) => ({ Component: m.ServiceTypesPage })),
          },
          { path: "projects/:projectId/ai", lazy: () => import("../features/ai/AIEmployeePage").then((m) => ({ Component: m.AIEmployeePage })) },
          {
            path: "payment-actions/:paymentActionId",
            lazy: () => import("../features/billing/PaymentActionPage").then((m) => ({ Component: m.PaymentActionPage })),
          },
          // The operator's desk of the site chat, at the links the service hands out.
          {
            path: "site-chat",
            lazy: () => import("../features/sitechat/SiteChatPage").then((m) => ({ Component: m.SiteChatPage })),
            children: [
              { index: true, element: <Navigate to="/site-chat/visitors" replace /> },
              { path: "visitors", lazy: () => import("../features/sitechat/VisitorsPage").then((m) => ({ Component: m.VisitorsPage })) },
              { path: "visits/:visitSessionId", lazy: () => import("../features/sitechat/VisitPage").then((m) => ({ Component: m.VisitPage })) },
              { path: "visits/:visitSessionId/call", lazy: () => import("../features/sitechat/VisitPage").then((m) => ({ Component: m.VisitPage })) },
              { path: "widgets", lazy: () => import("../features/sitechat/WidgetsPage").then((m) => ({ Component: m.WidgetsPage })) },
              { path: "widgets/:chatWidgetId", lazy: () => import("../features/sitechat/WidgetPage").then((m) => ({ Component: m.WidgetPage })) },
              {
                path: "conversations",
                lazy: () => import("../features/sitechat/ConversationsPage").then((m) => ({ Component: m.ConversationsPage })),
              },
              {
                path: "conversations/:conversationId",
                lazy: () => import("../features/sitechat/ConversationPage").then((m) => ({ Component: m.ConversationPage })),
              },
              { path: "*", element: <NotFoundPage /> },
            ],
          },
          {
            path: "work",
            lazy: () => import("../features/work/WorkFrame").then((m) => ({ Component: m.WorkFrame })),
            children: [
              { index: true, lazy: () => import("../features/work/MyTasksPage").then((m) => ({ Component: m.MyTasksPage })) },
              { path: "boards", lazy: () => import("../features/work/BoardsPage").then((m) => ({ Component: m.BoardsPage })) },
              { path: "boards/:boardId", lazy: () => import("../features/work/BoardPage").then((m) => ({ Component: m.BoardPage })) },
              { path: "tasks/:taskId", lazy: () => import("../features/work/TaskPage").then((m) => ({ Component: m.TaskPage })) },
              { path: "reports", lazy: () => import("../features/work/ReportsPage").then((m) => ({ Component: m.ReportsPage })) },
              {
                path: "task-workflows",
                lazy: () => import("../features/work/TaskWorkflowsPage").then((m) => ({ Component: m.TaskWorkflowsPage })),
              },
              {
                path: "task-workflows/:taskWorkflowId",
                lazy: () => import("../features/work/TaskWorkflowPage").then((m) => ({ Component: m.TaskWorkflowPage })),
              },
            ],
          },
          // Settings: the person's, the active company's and the active project's.
          {
            path: "settings",
            lazy: () => import("../features/settings/SettingsLayout").then((m) => ({ Component: m.SettingsLayout })),
            children: [
              { index: true, element: <Navigate to="/settings/profile" replace /> },
              { path: "profile", lazy: () => import("../features/settings/ProfilePage").then((m) => ({ Component: m.ProfilePage })) },
              { path: "sessions", lazy: () => import("../features/settings/SessionsPage").then((m) => ({ Component: m.SessionsPage })) },
              { path: "api-keys", lazy: () => import("../features/settings/ApiKeysPage").then((m) => ({ Component: m.ApiKeysPage })) },
              { path: "members", lazy: () => import("../features/settings/MembersPage").then((m) => ({ Component: m.MembersPage })) },
              { path: "projects", lazy: () => import("../features/settings/ProjectsPage").then((m) => ({ Component: m.ProjectsPage })) },
              {
                path: "party-lookup",
                lazy: () => import("../features/settings/PartyLookupPage").then((m) => ({ Component: m.PartyLookupPage })),
              },
              {
                path: "integrations",
                lazy: () => import("../features/integrations/IntegrationsPage").then((m) => ({ Component: m.IntegrationsPage })),
              },
              {
                path: "integrations/new",
                lazy: () => import("../features/integrations/NewIntegrationPage").then((m) => ({ Component: m.NewIntegrationPage })),
              },
              {
                path: "integrations/:integrationId",
                lazy: () => import("../features/integrations/IntegrationPage").then((m) => ({ Component: m.IntegrationPage })),
              },
              {
                path: "templates",
                lazy: () => import("../features/integrations/TemplatesPage").then((m) => ({ Component: m.TemplatesPage })),
              },
            ],
          },
          { path: "*", element: <NotFoundPage /> },
        ],
      },
    ],
  },
    ],
  },
]);
