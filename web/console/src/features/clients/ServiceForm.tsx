import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, data } from "../../api/client";
import { Field } from "../../components/Field";
import { FormButtons } from "../../components/FormButtons";
import { ProblemAlert } from "../../components/ProblemAlert";
import { SelectField } from "../../components/SelectField";
import { formProblem } from "../../lib/formProblem";
import { amountText, parseAmount } from "../../lib/money";
import { useServiceTypes } from "../billing/billing";
import { useProjects, useWorkspace } from "../workspace/workspace";
import { billingPeriods, useServiceChange, type BillingPeriod, type Client, type ClientService } from "./clients";
import "./texts";

type ServiceDraft = {
  project_id: string;
  name: string;
  client_service_type_id: string;
  amount: string;
  currency: string;
  billing_period: BillingPeriod;
  next_due_date: string;
};

/** ServiceForm adds a service to the client, or changes one: the project it is billed in,
 * its type (of those seen in that project), amount and currency, how often it is billed and
 * when it is next due. */
export function ServiceForm({ client, service, onDone }: { client: Client; service?: ClientService; onDone: () => void }) {
  const { t } = useTranslation("clients");
  const { t: common } = useTranslation();
  const workspace = useWorkspace().data;
  const projects = useProjects(client.company_id).data?.items ?? [];
  const [draft, setDraft] = useState<ServiceDraft>(() => ({
    project_id: service?.project_id ?? "",
    name: service?.name ?? "",
    client_service_type_id: service?.client_service_type_id ?? "",
    amount: service ? amountText(service.amount) : "",
    currency: service?.currency ?? "RUB",
    billing_period: service?.billing_period ?? "monthly",
    next_due_date: service?.next_due_date ?? "",
  }));
  const [invalid, setInvalid] = useState<unknown>(null);
  // Until one is chosen: the active project when it is the company's, else the first.
  const projectId =
    draft.project_id ||
    (projects.some((p) => p.project_id === workspace?.active_project_id) ? workspace?.active_project_id : projects[0]?.project_id) ||
    "";
  const types = useServiceTypes(projectId || undefined).data?.items ?? [];
  const save = useServiceChange(client.client_id, (body: ReturnType<typeof bodyOf>) =>
    service
      ? data(api.PATCH("/api/v1/client-services/{client_service_id}", { params: { path: { client_service_id: service.client_service_id } }, body }))
      : data(api.POST("/api/v1/clients/{client_id}/services", { params: { path: { client_id: client.client_id } }, body })),
  );
  const error = invalid ?? save.error;

  function bodyOf(amount: number) {
    return {
      project_id: projectId,
      name: draft.name,
      client_service_type_id: draft.client_service_type_id || undefined,
      amount,
      currency: draft.currency,
      billing_period: draft.billing_period,
      next_due_date: draft.next_due_date || undefined,
      // A form keeps the service's status; the list's buttons change it.
      status: service && service.status !== "deleted" ? service.status : ("active" as const),
    };
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const amount = parseAmount(draft.amount);
    if (amount === undefined) {
      setInvalid(formProblem(["amount"], t("amountFormat")));
      return;
    }
    setInvalid(null);
    save.mutate(bodyOf(amount), { onSuccess: onDone });
  }

  const set = <K extends keyof ServiceDraft>(key: K, value: ServiceDraft[K]) => setDraft({ ...draft, [key]: value });
  return (
    <form className="stack part-form service-form" onSubmit={submit} noValidate aria-label={service ? t("editNamed", { name: service.name }) : t("addService")}>
      <div className="form-grid">
        <SelectField
          label={t("project")}
          name="project_id"
          value={projectId}
          onChange={(e) => setDraft({ ...draft, project_id: e.target.value, client_service_type_id: "" })}
          error={error}
        >
          {projects.map((p) => (
            <option key={p.project_id} value={p.project_id}>
              {p.name}
            </option>
          ))}
        </SelectField>
        <Field label={t("serviceName")} name="name" required maxLength={300} value={draft.name} onChange={(e) => set("name", e.target.value)} error={error} />
        <SelectField
          label={t("serviceType")}
          name="client_service_type_id"
          value={draft.client_service_type_id}
          onChange={(e) => set("client_service_type_id", e.target.value)}
          error={error}
        >
          <option value="">{t("serviceTypeDefault")}</option>
          {/* No type is the global "other" type (docs/billing.md), offered once, as the first. */}
          {types.filter((type) => !(type.scope_kind === "global" && type.service_type_key === "other")).map((type) => (
            <option key={type.client_service_type_id} value={type.client_service_type_id}>
              {type.display_name}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="form-grid">
        <Field label={t("amount")} name="amount" inputMode="decimal" required value={draft.amount} onChange={(e) => set("amount", e.target.value)} error={error} />
        <Field
          label={t("currency")}
          name="currency"
          required
          maxLength={3}
          hint={t("currencyHint")}
          value={draft.currency}
          onChange={(e) => set("currency", e.target.value.toUpperCase())}
          error={error}
        />
        <SelectField
          label={t("billingPeriod")}
          name="billing_period"
          value={draft.billing_period}
          onChange={(e) => set("billing_period", billingPeriods.find((p) => p === e.target.value) ?? draft.billing_period)}
          error={error}
        >
          {billingPeriods.map((p) => (
            <option key={p} value={p}>
              {t(`period_${p}`)}
            </option>
          ))}
        </SelectField>
        <Field label={t("nextDueDate")} name="next_due_date" type="date" value={draft.next_due_date} onChange={(e) => set("next_due_date", e.target.value)} error={error} />
      </div>
      <ProblemAlert error={error} />
      <FormButtons label={service ? common("save") : t("addService")} pending={save.isPending} onCancel={onDone} />
    </form>
  );
}
