import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useActive } from "./active";
import { canManage, usePartyLookupSettings, useSavePartyLookupSettings, type Scope } from "./company";
import { NeedsWorkspace } from "./NeedsWorkspace";
import "./texts";

/** PartyLookupPage keeps where clients' tax numbers are looked up: the company's provider
 * settings, and the active project's, which override them while enabled. */
export function PartyLookupPage() {
  const { t } = useTranslation("settings");
  const active = useActive();
  const manage = canManage(active.role);
  return (
    <>
      <h1>{t("partyLookupTitle")}</h1>
      <p className="muted">{t("partyLookupIntro")}</p>
      <NeedsWorkspace active={active}>
        <PartyLookupCard title={t("partyLookupCompany")} scope={{ kind: "company", companyId: active.companyId }} manage={manage} />
        {active.projectId && <PartyLookupCard title={t("partyLookupProject")} scope={{ kind: "project", projectId: active.projectId }} manage={manage} />}
      </NeedsWorkspace>
    </>
  );
}

function PartyLookupCard({ title, scope, manage }: { title: string; scope: Scope; manage: boolean }) {
  const { t } = useTranslation("settings");
  const tc = useTranslation().t;
  const settings = usePartyLookupSettings(scope);
  const headingId = `party-lookup-${scope.kind}`;
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <ProblemAlert error={settings.error} />
      {settings.isPending && <p className="muted">{tc("loading")}</p>}
      {settings.data && (
        <>
          <p>{t(`effective_${scope.kind}_${settings.data.effective_scope}`)}</p>
          <PartyLookupForm
            scope={scope}
            manage={manage}
            apiBaseUrl={settings.data.api_base_url}
            enabled={settings.data.configured ? settings.data.enabled : true}
            tokenMasked={settings.data.token_masked}
          />
        </>
      )}
    </section>
  );
}

type FormProps = { scope: Scope; manage: boolean; apiBaseUrl: string; enabled: boolean; tokenMasked: string };

function PartyLookupForm({ scope, manage, apiBaseUrl, enabled: wasEnabled, tokenMasked }: FormProps) {
  const { t } = useTranslation("settings");
  const tc = useTranslation().t;
  const save = useSavePartyLookupSettings(scope);
  const [url, setUrl] = useState(apiBaseUrl);
  const [token, setToken] = useState("");
  const [enabled, setEnabled] = useState(wasEnabled);
  function submit(e: FormEvent) {
    e.preventDefault();
    // Without a token the API keeps the stored one.
    save.mutate({ provider: "party_lookup", api_base_url: url, enabled, ...(token ? { token } : {}) }, { onSuccess: () => setToken("") });
  }
  const id = `party-lookup-enabled-${scope.kind}`;
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <fieldset disabled={!manage} className="stack plain">
        <Field label={t("apiBaseUrl")} name="api_base_url" type="url" hint={t("apiBaseUrlHint")} value={url} onChange={(e) => setUrl(e.target.value)} error={save.error} />
        <Field
          label={t("token")}
          name="token"
          type="password"
          autoComplete="new-password"
          hint={tokenMasked ? t("tokenKept", { masked: tokenMasked }) : t("tokenNew")}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          error={save.error}
        />
        <div className="check">
          <input id={id} type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          <label htmlFor={id}>{t(scope.kind === "company" ? "enabledCompany" : "enabledProject")}</label>
        </div>
      </fieldset>
      {!manage && <p className="muted">{t("managersOnly")}</p>}
      <ProblemAlert error={save.error} />
      {manage && (
        <div className="row">
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? tc("saving") : tc("save")}
          </button>
          {save.isSuccess && (
            <span role="status" className="notice">
              {t("saved")}
            </span>
          )}
        </div>
      )}
    </form>
  );
}
