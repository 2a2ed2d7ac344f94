import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useWorkflow } from "../workflows/workflow";
import { WorkflowTabs } from "../workflows/WorkflowTabs";
import { CreateEndpointDialog } from "./CreateEndpointDialog";
import { EndpointCard } from "./EndpointCard";
import { useWebhookEndpoints, webhookTriggers, withoutEndpoint } from "./webhooks";
import "./webhooks.css";
import "./texts";

/** WebhooksPage lists a workflow's webhook endpoints and makes its webhook triggers reachable. */
export function WebhooksPage() {
  const { t } = useTranslation("webhooks");
  const tc = useTranslation().t;
  const workflowId = useParams().workflowId!;
  const workflow = useWorkflow(workflowId);
  const endpoints = useWebhookEndpoints(workflowId);
  const [creating, setCreating] = useState(false);
  const triggers = workflow.data ? webhookTriggers(workflow.data.draft.actions) : [];
  // Kept while the dialog is open, even once the new endpoint leaves this list empty: the
  // dialog still has its secret to show.
  const open = endpoints.data ? withoutEndpoint(triggers, endpoints.data.items) : [];
  return (
    <>
      <WorkflowTabs workflowId={workflowId}>
        <button type="button" className="primary" onClick={() => setCreating(true)} disabled={open.length === 0}>
          {t("newEndpoint")}
        </button>
      </WorkflowTabs>
      <section className="page webhooks stack" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title" className="page-title">
          {t("title")}
        </h2>
        <p className="muted">{t("intro")}</p>
        <ProblemAlert error={workflow.error ?? endpoints.error} />
        {workflow.data && triggers.length === 0 && (
          <p>
            {t("noTrigger")} <Link to={`/workflows/${workflowId}`}>{t("openEditor")}</Link>
          </p>
        )}
        {endpoints.isPending && <p className="muted">{tc("loading")}</p>}
        {endpoints.data?.items.length === 0 && triggers.length > 0 && <p>{t("noEndpoints")}</p>}
        {endpoints.data && endpoints.data.items.length > 0 && triggers.length > 0 && open.length === 0 && (
          <p className="muted">{t("allTriggersReachable")}</p>
        )}
        {endpoints.data?.items.map((e) => (
          <EndpointCard key={e.webhook_endpoint_id} endpoint={e} />
        ))}
      </section>
      {creating && <CreateEndpointDialog workflowId={workflowId} triggers={open} onClose={() => setCreating(false)} />}
    </>
  );
}
