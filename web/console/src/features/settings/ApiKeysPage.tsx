import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Field } from "../../components/Field";
import { ListTable } from "../../components/ListTable";
import { ProblemAlert } from "../../components/ProblemAlert";
import { SecretDialog } from "../../components/SecretDialog";
import { formatTime } from "../../lib/time";
import { useApiKeys, useCreateApiKey, useRevokeApiKey, type ApiKeyView } from "./account";
import { AskFirst } from "../../components/AskFirst";
import "./texts";

/** ApiKeysPage creates API keys, each shown once, and revokes them; a revoked key stays listed as a record. */
export function ApiKeysPage() {
  const { t } = useTranslation("settings");
  const tc = useTranslation().t;
  const keys = useApiKeys();
  return (
    <>
      <h1>{t("apiKeysTitle")}</h1>
      <p className="muted">{t("apiKeysIntro")}</p>
      <p>
        {t("apiKeysReference")} <Link to="/reference">{tc("apiReference")}</Link>
      </p>
      <NewApiKeyForm />
      <ProblemAlert error={keys.error} />
      {keys.isPending && <p className="muted">{tc("loading")}</p>}
      {keys.data?.items.length === 0 && <p className="muted">{t("noApiKeys")}</p>}
      {keys.data && keys.data.items.length > 0 && (
        <ListTable columns={[tc("name"), t("key"), t("created"), t("lastUsed"), t("expires")]} actions={t("actions")}>
          {keys.data.items.map((k) => (
            <ApiKeyRow key={k.api_key_id} apiKey={k} />
          ))}
        </ListTable>
      )}
    </>
  );
}

/** expiryOf is the start of the chosen day in the person's time zone, as the API's instant. */
function expiryOf(day: string): string | undefined {
  return day ? new Date(`${day}T00:00:00`).toISOString() : undefined;
}

function NewApiKeyForm() {
  const { t } = useTranslation("settings");
  const tc = useTranslation().t;
  const create = useCreateApiKey();
  const [name, setName] = useState("");
  const [expires, setExpires] = useState("");
  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate({ name, expires_at: expiryOf(expires) }, { onSuccess: () => setName("") });
  }
  return (
    <section className="card" aria-labelledby="new-api-key">
      <h2 id="new-api-key">{t("newApiKey")}</h2>
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field label={t("apiKeyName")} name="name" hint={t("apiKeyNameHint")} maxLength={100} value={name} onChange={(e) => setName(e.target.value)} error={create.error} />
        <Field label={t("expiresOn")} name="expires_at" hint={t("expiresOnHint")} type="date" value={expires} onChange={(e) => setExpires(e.target.value)} error={create.error} />
        <button type="submit" className="primary" disabled={create.isPending}>
          {tc("create")}
        </button>
      </form>
      <ProblemAlert error={create.error} />
      {create.data && (
        <SecretDialog title={t("newKeyTitle", { name: create.data.name })} secret={create.data.key} label={t("key")} warning={t("keyOnce")} onClose={() => create.reset()} />
      )}
    </section>
  );
}

function ApiKeyRow({ apiKey }: { apiKey: ApiKeyView }) {
  const { t, i18n } = useTranslation("settings");
  const revoke = useRevokeApiKey();
  const when = (iso: string | null) => (iso ? formatTime(iso, i18n.language) : "—");
  return (
    <tr>
      <td>{apiKey.name}</td>
      <td>
        <code className="key">{apiKey.masked_key}</code>
      </td>
      <td>{when(apiKey.created_at)}</td>
      <td>{apiKey.last_used_at ? when(apiKey.last_used_at) : t("neverUsed")}</td>
      <td>{apiKey.expires_at ? when(apiKey.expires_at) : t("never")}</td>
      <td className="row-actions">
        {apiKey.revoked_at ? (
          <span className="muted">{t("revokedOn", { when: when(apiKey.revoked_at) })}</span>
        ) : (
          <>
            <AskFirst
              label={t("revoke")}
              name={t("revokeKeyNamed", { name: apiKey.name })}
              question={t("revokeKeyQuestion")}
              pending={revoke.isPending}
              onConfirm={() => revoke.mutate(apiKey.api_key_id)}
            />
            <ProblemAlert error={revoke.error} />
          </>
        )}
      </td>
    </tr>
  );
}
