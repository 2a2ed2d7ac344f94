import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { api, data } from "../../api/client";
import { ProblemAlert } from "../../components/ProblemAlert";
import { AuthFrame } from "./AuthFrame";

/** ActivatePage spends the mailed activation token as soon as the link is opened. */
export function ActivatePage() {
  const { t } = useTranslation("auth");
  const token = useSearchParams()[0].get("token") ?? "";
  const activate = useMutation({
    mutationFn: (token: string) => data(api.POST("/api/v1/auth/activate", { body: { token } })),
  });
  const { mutate } = activate;
  // A token works once: StrictMode runs effects twice, and a second call would answer
  // "invalid token" over the first call's success.
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  return (
    <AuthFrame title={t("activateTitle")}>
      <div className="stack" aria-live="polite">
        {!token && <p>{t("activateNoToken")}</p>}
        {activate.isPending && <p role="status">{t("activating")}</p>}
        {activate.isSuccess && <p role="status">{t("activated")}</p>}
        {activate.isError && (
          <>
            <ProblemAlert error={activate.error} />
            <p>{t("activateFailed")}</p>
            <p>
              <Link to="/reset-password">{t("requestReset")}</Link>
            </p>
          </>
        )}
        <p>
          <Link to="/sign-in">{t("signIn")}</Link>
        </p>
      </div>
    </AuthFrame>
  );
}
