import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { api, data, ProblemError } from "../../api/client";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { AuthFrame } from "./AuthFrame";

/** ResetPasswordPage asks for a reset link, or, opened from that link, sets the new password. */
export function ResetPasswordPage() {
  const { t } = useTranslation("auth");
  const token = useSearchParams()[0].get("token");
  return (
    <AuthFrame title={t("resetTitle")}>
      {token ? <NewPasswordForm key={token} token={token} /> : <ResetLinkRequest />}
      <p>
        <Link to="/sign-in">{t("backToSignIn")}</Link>
      </p>
    </AuthFrame>
  );
}

function ResetLinkRequest() {
  const { t } = useTranslation("auth");
  const [email, setEmail] = useState("");
  const request = useMutation({
    mutationFn: (email: string) => data(api.POST("/api/v1/auth/password-reset/request", { body: { email } })),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    request.mutate(email);
  }
  // The answer is the same whether or not the account exists, so the page cannot say more;
  // only whether this server sends mail at all.
  if (request.isSuccess) return <p role="status">{t(request.data.mail_configured ? "resetRequested" : "resetNotMailed", { email: request.variables })}</p>;
  return (
    <form onSubmit={submit} className="stack" noValidate>
      <p>{t("resetRequestIntro")}</p>
      <Field label={t("email")} name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} error={request.error} />
      <ProblemAlert error={request.error} />
      <button type="submit" className="primary" disabled={request.isPending}>
        {request.isPending ? t("sending") : t("sendResetLink")}
      </button>
    </form>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation("auth");
  const [password, setPassword] = useState("");
  const confirm = useMutation({
    mutationFn: (new_password: string) =>
      data(api.POST("/api/v1/auth/password-reset/confirm", { body: { token, new_password } })),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    confirm.mutate(password);
  }
  if (confirm.isSuccess) return <p role="status">{t("passwordUpdated")}</p>;
  // An unknown, spent or expired link and a too short password both name token: the
  // Problem's action says which, and the way to a new link stays at hand.
  const linkSpent = confirm.error instanceof ProblemError && confirm.error.names("token");
  return (
    <form onSubmit={submit} className="stack" noValidate>
      <Field
        label={t("newPassword")}
        name="new_password"
        type="password"
        autoComplete="new-password"
        required
        minLength={12}
        maxLength={256}
        hint={t("passwordHint")}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={confirm.error}
      />
      <ProblemAlert error={confirm.error} />
      {linkSpent && (
        <p>
          <Link to="/reset-password">{t("requestNewLink")}</Link>
        </p>
      )}
      <button type="submit" className="primary" disabled={confirm.isPending}>
        {t("setPassword")}
      </button>
    </form>
  );
}
