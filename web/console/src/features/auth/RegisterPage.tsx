import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { api, data } from "../../api/client";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { formProblem } from "../../lib/formProblem";
import { AuthFrame } from "./AuthFrame";
import { safeNext } from "./next";

/** unfitText says what an input the browser finds unfit needs. */
const unfitText = { name: "unfit_name", email: "unfit_email", password: "unfit_password" } as const;

export function RegisterPage() {
  const { t } = useTranslation("auth");
  const navigate = useNavigate();
  // An invitation link sends a person here with its e-mail and back to it afterwards.
  const [params] = useSearchParams();
  const next = params.get("next");
  const [form, setForm] = useState({ name: "", email: params.get("email") ?? "", password: "" });
  const register = useMutation({
    // An account that needs no activation signs in at once.
    mutationFn: async () => {
      const account = await data(api.POST("/api/v1/auth/register", { body: form }));
      if (account.status === "active") {
        await data(api.POST("/api/v1/auth/login", { body: { email: form.email, password: form.password, client_type: "browser" } }));
      }
      return account;
    },
    onSuccess: (account) => {
      if (account.status === "active") void navigate(next ? safeNext(next) : "/setup", { replace: true });
    },
  });
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [field]: e.target.value });
  const [unfit, setUnfit] = useState<unknown>(null);
  const error = unfit ?? register.error;
  // The browser's own checks of the inputs (required, type, length) speak first, each on
  // its field in the person's language; the API's Problem covers the rest.
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const input = Array.from(e.currentTarget.querySelectorAll("input")).find((i) => !i.checkValidity());
    if (input) {
      setUnfit(formProblem([input.name], t(unfitText[input.name as keyof typeof unfitText])));
      input.focus();
      return;
    }
    setUnfit(null);
    register.mutate();
  }
  if (register.data?.status === "pending_activation") {
    return (
      <AuthFrame title={t("registerTitle")}>
        <p role="status">{t("checkMail", { email: register.data.email })}</p>
        {next?.startsWith("/invitations/") && <p>{t("checkMailThenInvitation")}</p>}
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={t("registerTitle")}>
      <form onSubmit={submit} className="stack" noValidate>
        <Field label={t("yourName")} name="name" autoComplete="name" required maxLength={200} value={form.name} onChange={set("name")} error={error} />
        <Field label={t("email")} name="email" type="email" autoComplete="email" required value={form.email} onChange={set("email")} error={error} />
        <Field label={t("password")} name="password" type="password" autoComplete="new-password" required minLength={12} maxLength={256} hint={t("passwordHint")} value={form.password} onChange={set("password")} error={error} />
        <ProblemAlert error={error} />
        <button type="submit" className="primary" disabled={register.isPending}>
          {t("register")}
        </button>
      </form>
      <p>
        {t("haveAccount")} <Link to={`/sign-in${window.location.search}`}>{t("signIn")}</Link>
      </p>
    </AuthFrame>
  );
}
