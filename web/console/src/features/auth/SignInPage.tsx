import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { api, data } from "../../api/client";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { AuthFrame } from "./AuthFrame";
import { safeNext } from "./next";
import "./providers.css";

/** ProviderSignIn offers a sign-in with each identity provider the server has configured. */
function ProviderSignIn() {
  const { t } = useTranslation("auth");
  const providers = useQuery({
    queryKey: ["auth", "providers"],
    queryFn: () => data(api.GET("/api/v1/auth/providers")),
    staleTime: Infinity,
  });
  // Without the list (none configured, or it failed to load) the password form stands alone.
  const items = providers.data?.items ?? [];
  if (items.length === 0) return null;
  // Links, not fetches: start answers a browser with a redirect to the provider, whose
  // callback sets the session cookies and sends the browser to APP_SIGNIN_REDIRECT_URL.
  return (
    <>
      <div className="stack">
        {items.map((p) => (
          <a key={p.provider} className="provider-sign-in" href={`/api/v1/auth/oauth/${p.provider}/start`}>
            {t("signInWith", { provider: p.display_name })}
          </a>
        ))}
      </div>
      <p className="or-separator">
        <span>{t("or")}</span>
      </p>
    </>
  );
}

export function SignInPage() {
  const { t } = useTranslation("auth");
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState(params.get("email") ?? "");
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
      <ProviderSignIn />
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
        {t("noAccount")} <Link to={`/register${window.location.search}`}>{t("register")}</Link>
      </p>
    </AuthFrame>
  );
}
