import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { api, data } from "../../api/client";
import { Field } from "../../components/Field";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useMe } from "./session";

type Decision = "approve" | "deny";

/** DevicePage approves or denies a desktop app's sign-in by the code the app shows. */
export function DevicePage() {
  const { t } = useTranslation("auth");
  const [params] = useSearchParams();
  const me = useMe().data;
  // The desktop start hands out verification_uri_complete, /device?user_code=XXXX-XXXX.
  const [userCode, setUserCode] = useState(params.get("user_code") ?? params.get("code") ?? "");
  const decide = useMutation({
    mutationFn: ({ decision, user_code }: { decision: Decision; user_code: string }) =>
      data(api.POST(`/api/v1/desktop/auth/${decision}`, { body: { user_code } })),
  });
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    const decision: Decision = submitter instanceof HTMLButtonElement && submitter.value === "deny" ? "deny" : "approve";
    decide.mutate({ decision, user_code: userCode.trim() });
  }

  if (decide.isSuccess) {
    const device = decide.data.device_label || t("unnamedDevice");
    return (
      <section className="page narrow stack">
        <h1>{t("deviceTitle")}</h1>
        <p role="status">{decide.data.status === "approved" ? t("deviceApproved", { device }) : t("deviceDenied", { device })}</p>
        <p>
          <button
            type="button"
            onClick={() => {
              setUserCode("");
              decide.reset();
            }}
          >
            {t("anotherCode")}
          </button>
        </p>
      </section>
    );
  }
  return (
    <section className="page narrow">
      <h1>{t("deviceTitle")}</h1>
      <p>{t("deviceIntro", { who: me?.email ?? "" })}</p>
      <form onSubmit={submit} className="stack" noValidate>
        <Field
          label={t("userCode")}
          name="user_code"
          required
          maxLength={20}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          hint={t("userCodeHint")}
          value={userCode}
          onChange={(e) => setUserCode(e.target.value)}
          error={decide.error}
        />
        <ProblemAlert error={decide.error} />
        <div className="row">
          <button type="submit" className="primary" value="approve" disabled={decide.isPending}>
            {t("approve")}
          </button>
          <button type="submit" className="danger" value="deny" disabled={decide.isPending}>
            {t("deny")}
          </button>
        </div>
      </form>
    </section>
  );
}
