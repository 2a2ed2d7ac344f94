import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../components/Field";
import { LanguageSelect } from "../../components/LanguageSelect";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useMe } from "../auth/session";
import { useSaveProfile } from "./account";
import "./texts";

/** ProfilePage is the person's name, e-mail and language. */
export function ProfilePage() {
  const { t } = useTranslation("settings");
  const me = useMe();
  if (!me.data) return <ProblemAlert error={me.error} />;
  return (
    <>
      <h1>{t("profileTitle")}</h1>
      <section className="card" aria-labelledby="profile-name">
        <h2 id="profile-name">{t("profileDetails")}</h2>
        <dl className="facts">
          <dt>{t("email")}</dt>
          <dd>{me.data.email}</dd>
        </dl>
        <NameForm name={me.data.name ?? ""} />
      </section>
      <LanguageChoice />
    </>
  );
}

/** LanguageChoice is the header's language choice, which here is also the account's: the
 * language the product writes to the person in (desktop messages) wherever they sign in. */
function LanguageChoice() {
  const { t } = useTranslation("settings");
  const tc = useTranslation().t;
  const save = useSaveProfile();
  return (
    <section className="card" aria-labelledby="profile-language">
      <h2 id="profile-language">{tc("language")}</h2>
      <p className="muted">{t("languageHint")}</p>
      <div className="row">
        <LanguageSelect label={t("interfaceLanguage")} onChosen={(language) => save.mutate({ language })} />
        {save.isSuccess && (
          <span role="status" className="notice">
            {t("saved")}
          </span>
        )}
      </div>
      <ProblemAlert error={save.error} />
    </section>
  );
}

function NameForm({ name: saved }: { name: string }) {
  const { t } = useTranslation("settings");
  const tc = useTranslation().t;
  const save = useSaveProfile();
  const [name, setName] = useState(saved);
  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate({ name });
  }
  return (
    <form className="inline-form" onSubmit={submit} noValidate>
      <Field label={t("yourName")} name="name" autoComplete="name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} error={save.error} />
      <button type="submit" className="primary" disabled={save.isPending || name === saved}>
        {save.isPending ? tc("saving") : tc("save")}
      </button>
      {save.isSuccess && name === saved && (
        <p role="status" className="notice">
          {t("saved")}
        </p>
      )}
      <ProblemAlert error={save.error} />
    </form>
  );
}
