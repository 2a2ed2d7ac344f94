import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import type { RJSFSchema } from "@rjsf/utils";
import { AskFirst } from "../../components/AskFirst";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useActive } from "../settings/active";
import { canManage } from "../settings/company";
import { NeedsWorkspace } from "../settings/NeedsWorkspace";
import { ConnectionTest } from "./ConnectionTest";
import { DependencyForm, type DependencyFormRef } from "./DependencyForm";
import { labelOf } from "./dependencyForm";
import { useDeleteIntegration, useDependencyTypes, useIntegration, usePatchIntegration, type DependencyType, type Integration } from "./integrations";
import { RelayPanel } from "./RelayPanel";
import { RotateCredentialDialog } from "./RotateCredentialDialog";
import "./integrations.css";
import "./texts";

/** IntegrationPage is one integration: its settings and masked credential, its connection
 * test, and what owners and admins change (name, status, settings, credential, relay). */
export function IntegrationPage() {
  const active = useActive();
  const id = useParams().integrationId!;
  return (
    <NeedsWorkspace active={active} project>
      <IntegrationView projectId={active.projectId} id={id} manage={canManage(active.role)} />
    </NeedsWorkspace>
  );
}

function IntegrationView({ projectId, id, manage }: { projectId: string; id: string; manage: boolean }) {
  const { t } = useTranslation("integrations");
  const tc = useTranslation().t;
  const integration = useIntegration(projectId, id);
  const testNow = (useLocation().state as { testNow?: boolean } | null)?.testNow === true;
  const type = useDependencyTypes().data?.find((ty) => ty.dependency_type_key === integration.data?.dependency_type_key);
  if (integration.error) {
    return (
      <>
        <ProblemAlert error={integration.error} />
        <Link to="/settings/integrations">{t("backToList")}</Link>
      </>
    );
  }
  if (!integration.data) return <p className="muted">{tc("loading")}</p>;
  const d = integration.data;
  return (
    <>
      <p className="crumbs">
        <Link to="/settings/integrations">{t("title")}</Link>
      </p>
      <div className="title-row">
        <h1>{d.name}</h1>
        <span className={`badge ${d.status === "active" ? "ok" : "muted"}`}>{t(`status_${d.status}`)}</span>
      </div>
      <p className="muted">{type?.display_name ?? d.dependency_type_key}</p>
      <ConnectionTest integration={d} manage={manage} testNow={testNow} />
      <SettingsCard integration={d} type={type} manage={manage} />
      <CredentialCard integration={d} type={type} manage={manage} />
      {d.dependency_type_key === "messenger_a.bot" && <RelayPanel integration={d} manage={manage} />}
      {manage && <DangerCard integration={d} />}
    </>
  );
}

/** Values lists an object's fields as they are stored (or masked), as text. */
function Values({ values }: { values: Record<string, unknown> }) {
  const { t } = useTranslation("integrations");
  const entries = Object.entries(values);
  if (entries.length === 0) return <p className="muted">{t("nothingSet")}</p>;
  return (
    <dl className="facts">
      {entries.map(([name, value]) => (
        <div key={name} className="contents">
          <dt>{labelOf(name)}</dt>
          <dd>
            <code>{typeof value === "string" ? value : JSON.stringify(value)}</code>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function SettingsCard({ integration: d, type, manage }: { integration: Integration; type: DependencyType | undefined; manage: boolean }) {
  const { t } = useTranslation("integrations");
  const [editing, setEditing] = useState(false);
  return (
    <section className="card" aria-labelledby="integration-settings">
      <div className="page-head">
        <h2 id="integration-settings">{t("settingsPart")}</h2>
        {manage && !editing && (
          <button type="button" onClick={() => setEditing(true)}>
            {t("changeSettings")}
          </button>
        )}
      </div>
      {editing && type ? <SettingsForm integration={d} type={type} onDone={() => setEditing(false)} /> : <Values values={d.metadata} />}
    </section>
  );
}

function SettingsForm({ integration: d, type, onDone }: { integration: Integration; type: DependencyType; onDone: () => void }) {
  const { t } = useTranslation("integrations");
  const tc = useTranslation().t;
  const patch = usePatchIntegration(d);
  const [name, setName] = useState(d.name);
  const [metadata, setMetadata] = useState<Record<string, unknown>>(d.metadata);
  const form = useRef<DependencyFormRef>(null);
  function submit(e: FormEvent) {
    e.preventDefault();
    if (form.current && !form.current.validateForm()) return;
    patch.mutate({ name, metadata }, { onSuccess: onDone });
  }
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <Field label={tc("name")} name="name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} error={patch.error} />
      <DependencyForm schema={type.metadata_schema_json as RJSFSchema} part="metadata" title={t("settingsPart")} value={metadata} onChange={setMetadata} error={patch.error} formRef={form} />
      <p className="muted">{t("settingsClearTest")}</p>
      <ProblemAlert error={patch.error} />
      <div className="row">
        <button type="submit" className="primary" disabled={patch.isPending}>
          {patch.isPending ? tc("saving") : tc("save")}
        </button>
        <button type="button" onClick={onDone}>
          {tc("cancel")}
        </button>
      </div>
    </form>
  );
}

function CredentialCard({ integration: d, type, manage }: { integration: Integration; type: DependencyType | undefined; manage: boolean }) {
  const { t } = useTranslation("integrations");
  const [rotating, setRotating] = useState(false);
  return (
    <section className="card" aria-labelledby="integration-credential">
      <div className="page-head">
        <h2 id="integration-credential">{t("credentialPart")}</h2>
        {manage && type && (
          <button type="button" onClick={() => setRotating(true)}>
            {t("rotateCredential")}
          </button>
        )}
      </div>
      <p className="muted">{t("credentialMasked")}</p>
      <Values values={d.auth_masked} />
      {rotating && type && <RotateCredentialDialog integration={d} type={type} onClose={() => setRotating(false)} />}
    </section>
  );
}

function DangerCard({ integration: d }: { integration: Integration }) {
  const { t } = useTranslation("integrations");
  const tc = useTranslation().t;
  const navigate = useNavigate();
  const patch = usePatchIntegration(d);
  const remove = useDeleteIntegration(d);
  const active = d.status === "active";
  return (
    <section className="card" aria-labelledby="integration-status">
      <h2 id="integration-status">{t("statusAndRemoval")}</h2>
      <p className="muted">{active ? t("disableHint") : t("enableHint")}</p>
      <ProblemAlert error={patch.error ?? remove.error} />
      <div className="row">
        <button type="button" disabled={patch.isPending} onClick={() => patch.mutate({ status: active ? "disabled" : "active" })}>
          {active ? t("disable") : t("enable")}
        </button>
        <AskFirst
          label={tc("delete")}
          question={t("deleteQuestion")}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(undefined, { onSuccess: () => void navigate("/settings/integrations") })}
        />
      </div>
    </section>
  );
}
