import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { api, data } from "../../api/client";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { AuthFrame } from "./AuthFrame";
import { safeNext } from "./next";

export function SignInPage() {
  const { t } = useTranslation("auth");
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const signIn = useMutation({
    mutationFn: () => data(api.POST("/api/v1/auth/login", { body: { email, password, client_type: "browser" } })),
    onSuccess: () => {
      queryClient.clear();
      void navigate(safeNext(params.get("next")), { replace: true });
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    signIn.mutate();
  }
  return (
    <AuthFrame title={t("signInTitle")}>
      <form onSubmit={submit} className="stack" noValidate>
        <Field label={t("email")} name="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} error={signIn.error} />
        <Field label={t("password")} name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} error={signIn.error} />
        <ProblemAlert error={signIn.error} />
        <button type="submit" className="primary" disabled={signIn.isPending}>
          {signIn.isPending ? t("signingIn") : t("signIn")}
        </button>
      </form>
      <p>
        <Link to="/reset-password">{t("forgotPassword")}</Link>
      </p>
      <p>
        {t("noAccount")} <Link to="/register">{t("register")}</Link>
      </p>
    </AuthFrame>
  );
}
