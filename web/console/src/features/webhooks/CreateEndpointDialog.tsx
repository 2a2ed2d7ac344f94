import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../components/Field";
import { fieldError, ProblemAlert } from "../../components/ProblemAlert";
import { AuthTypeChoice } from "./AuthTypeChoice";
import { Dialog, DialogButtons } from "../../components/Dialog";
import { SecretDialog } from "../../components/SecretDialog";
import { useCreateWebhookEndpoint, type WebhookEndpointCreate, type WebhookTrigger } from "./webhooks";
import "./texts";

/** CreateEndpointDialog makes one of the draft's webhook triggers reachable, then shows
 * the new endpoint's secret once. */
export function CreateEndpointDialog({ workflowId, triggers, onClose }: { workflowId: string; triggers: WebhookTrigger[]; onClose: () => void }) {
  const { t } = useTranslation("webhooks");
  const tc = useTranslation().t;
  const create = useCreateWebhookEndpoint(workflowId);
  // Lazy: once the endpoint exists, its trigger leaves `triggers`, which may then be empty.
  const [form, setForm] = useState<Required<Pick<WebhookEndpointCreate, "endpoint_key" | "auth_type" | "content_type" | "basic_username" | "description">>>(() => ({
    endpoint_key: triggers[0].endpointKey,
    auth_type: triggers[0].authType,
    content_type: "json",
    basic_username: "",
    description: "",
  }));
  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate(form);
  }
  function chooseTrigger(key: string) {
    const trigger = triggers.find((tr) => tr.endpointKey === key);
    setForm({ ...form, endpoint_key: key, auth_type: trigger?.authType ?? form.auth_type });
  }

  if (create.data) {
    return (
      <SecretDialog title={t("newSecretTitle", { key: create.data.endpoint_key })} secret={create.data.secret} label={t("secret")} warning={t("secretOnce")} onClose={onClose} />
    );
  }
  const keyError = fieldError(create.error, "endpoint_key");
  const contentError = fieldError(create.error, "content_type");
  return (
    <Dialog title={t("newEndpoint")} onClose={onClose}>
      <form className="stack" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="endpoint-trigger">{t("trigger")}</label>
          <select
            id="endpoint-trigger"
            value={form.endpoint_key}
            onChange={(e) => chooseTrigger(e.target.value)}
            aria-invalid={keyError ? true : undefined}
            aria-describedby={keyError ? "endpoint-trigger-error" : undefined}
          >
            {triggers.map((tr) => (
              <option key={tr.endpointKey} value={tr.endpointKey}>
                {tr.label} ({tr.endpointKey})
              </option>
            ))}
          </select>
          {keyError && (
            <small id="endpoint-trigger-error" className="field-error">
              {keyError}
            </small>
          )}
        </div>
        <AuthTypeChoice value={form.auth_type} onChange={(auth_type) => setForm({ ...form, auth_type })} error={create.error} />
        {form.auth_type === "basic" && (
          <Field
            label={t("basicUsername")}
            name="basic_username"
            hint={t("basicUsernameHint")}
            maxLength={200}
            autoComplete="off"
            value={form.basic_username}
            onChange={(e) => setForm({ ...form, basic_username: e.target.value })}
            error={create.error}
          />
        )}
        <div className="field">
          <label htmlFor="endpoint-content">{t("contentType")}</label>
          <select
            id="endpoint-content"
            value={form.content_type}
            onChange={(e) => setForm({ ...form, content_type: e.target.value === "any" ? "any" : "json" })}
            aria-invalid={contentError ? true : undefined}
          >
            <option value="json">{t("content_json")}</option>
            <option value="any">{t("content_any")}</option>
          </select>
          {contentError && <small className="field-error">{contentError}</small>}
        </div>
        <Field
          label={t("description")}
          name="description"
          hint={t("descriptionHint")}
          maxLength={500}
          value={form.description}
          onChange={(e) => setForm({ ...form, description: e.target.value })}
          error={create.error}
        />
        <ProblemAlert error={create.error} />
        <DialogButtons label={create.isPending ? t("creating") : tc("create")} onCancel={onClose} pending={create.isPending} />
      </form>
    </Dialog>
  );
}
