import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { api, data } from "../../api/client";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { AuthFrame } from "./AuthFrame";

export function RegisterPage() {
  const { t } = useTranslation("auth");
  const navigate = useNavigate();
  const [form, setForm] = useState({ name: "", email: "", password: "" });
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
      if (account.status === "active") void navigate("/setup", { replace: true });
    },
  });
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [field]: e.target.value });
  function submit(e: FormEvent) {
    e.preventDefault();
    register.mutate();
  }
  if (register.data?.status === "pending_activation") {
    return (
      <AuthFrame title={t("registerTitle")}>
        <p role="status">{t("checkMail", { email: register.data.email })}</p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={t("registerTitle")}>
      <form onSubmit={submit} className="stack" noValidate>
        <Field label={t("yourName")} name="name" autoComplete="name" required maxLength={200} value={form.name} onChange={set("name")} error={register.error} />
        <Field label={t("email")} name="email" type="email" autoComplete="email" required value={form.email} onChange={set("email")} error={register.error} />
        <Field label={t("password")} name="password" type="password" autoComplete="new-password" required minLength={12} maxLength={256} hint={t("passwordHint")} value={form.password} onChange={set("password")} error={register.error} />
        <ProblemAlert error={register.error} />
        <button type="submit" className="primary" disabled={register.isPending}>
          {t("register")}
        </button>
      </form>
      <p>
        {t("haveAccount")} <Link to="/sign-in">{t("signIn")}</Link>
      </p>
    </AuthFrame>
  );
}
