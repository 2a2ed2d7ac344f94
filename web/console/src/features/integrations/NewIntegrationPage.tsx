import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import type { RJSFSchema } from "@rjsf/utils";
import { Field } from "../../components/Field";
import { fieldError, ProblemAlert } from "../../components/ProblemAlert";
import { useActive } from "../settings/active";
import { NeedsWorkspace } from "../settings/NeedsWorkspace";
import { DependencyForm, type DependencyFormRef } from "./DependencyForm";
import { useCreateIntegration, useDependencyTypes, type DependencyType } from "./integrations";
import "./integrations.css";
import "./texts";

/** NewIntegrationPage creates an integration of a chosen type, with the forms its type's
 * schemas describe: settings, then the credential, which is sent once and never shown. */
export function NewIntegrationPage() {
  const { t } = useTranslation("integrations");
  const active = useActive();
  return (
    <>
      <h1>{t("newIntegration")}</h1>
      <NeedsWorkspace active={active} project>
        <NewIntegrationForm projectId={active.projectId} />
      </NeedsWorkspace>
    </>
  );
}

function NewIntegrationForm({ projectId }: { projectId: string }) {
  const { t } = useTranslation("integrations");
  const tc = useTranslation().t;
  const types = useDependencyTypes();
  // A link may name the type it is for (the AI page's, a model provider); a person may still
  // choose another.
  const [searchParams] = useSearchParams();
  const [typeKey, setTypeKey] = useState(searchParams.get("type") ?? "");
  if (types.error) return <ProblemAlert error={types.error} />;
  if (!types.data) return <p className="muted">{tc("loading")}</p>;
  const type = types.data.find((ty) => ty.dependency_type_key === typeKey);
  return (
    <div className="stack">
      <div className="field">
        <label htmlFor="integration-type">{t("type")}</label>
        <select id="integration-type" value={typeKey} onChange={(e) => setTypeKey(e.target.value)}>
          <option value="">{t("chooseType")}</option>
          {types.data.map((ty) => (
            <option key={ty.dependency_type_key} value={ty.dependency_type_key}>
              {ty.display_name}
            </option>
          ))}
        </select>
      </div>
      {/* A new type starts a new form: nothing typed for another type is sent. */}
      {type && <TypedForm key={type.dependency_type_key} projectId={projectId} type={type} />}
      <p>
        <Link to="/settings/integrations">{t("backToList")}</Link>
      </p>
    </div>
  );
}

function TypedForm({ projectId, type }: { projectId: string; type: DependencyType }) {
  const { t } = useTranslation("integrations");
  const tc = useTranslation().t;
  const navigate = useNavigate();
  const create = useCreateIntegration(projectId);
  const [name, setName] = useState(type.display_name);
  const [metadata, setMetadata] = useState<Record<string, unknown>>({});
  const [auth, setAuth] = useState<Record<string, unknown>>({});
  const metadataForm = useRef<DependencyFormRef>(null);
  const authForm = useRef<DependencyFormRef>(null);
  function submit(e: FormEvent) {
    e.preventDefault();
    // Both forms show their errors before anything is sent.
    const checked = [metadataForm, authForm].map((f) => f.current?.validateForm() ?? true);
    if (checked.includes(false)) return;
    create.mutate(
      { dependency_type_key: type.dependency_type_key, name, metadata, auth },
      // Saved, it is tested at once: the page opens on the provider's first answer.
      { onSuccess: (d) => void navigate(`/settings/integrations/${d.action_dependency_id}`, { state: { testNow: true } }) },
    );
  }
  const typeError = fieldError(create.error, "dependency_type_key");
  return (
    <form className="stack" onSubmit={submit} noValidate>
      {typeError && <p className="field-error">{typeError}</p>}
      <Field label={tc("name")} name="name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} error={create.error} />
      <section className="card">
        <DependencyForm
          schema={type.metadata_schema_json as RJSFSchema}
          part="metadata"
          title={t("settingsPart")}
          value={metadata}
          onChange={setMetadata}
          error={create.error}
          formRef={metadataForm}
        />
      </section>
      <section className="card">
        <p className="muted">{t("credentialOnce")}</p>
        <DependencyForm schema={type.auth_schema_json as RJSFSchema} part="auth" title={t("credentialPart")} value={auth} onChange={setAuth} error={create.error} formRef={authForm} />
      </section>
      <ProblemAlert error={create.error} />
      <div className="row">
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? t("creating") : tc("create")}
        </button>
      </div>
    </form>
  );
}
