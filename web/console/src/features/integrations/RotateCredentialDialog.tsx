import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { RJSFSchema } from "@rjsf/utils";
import { Dialog, DialogButtons } from "../../components/Dialog";
import { ProblemAlert } from "../../components/ProblemAlert";
import { DependencyForm, type DependencyFormRef } from "./DependencyForm";
import { useRotateCredential, type DependencyType, type Integration } from "./integrations";
import "./texts";

/** RotateCredentialDialog replaces an integration's credential with one the provider issued:
 * the form of the type's auth schema, sent once; the API answers it masked. */
export function RotateCredentialDialog({ integration: d, type, onClose }: { integration: Integration; type: DependencyType; onClose: () => void }) {
  const { t } = useTranslation("integrations");
  const rotate = useRotateCredential(d);
  const [auth, setAuth] = useState<Record<string, unknown>>({});
  const form = useRef<DependencyFormRef>(null);
  function submit(e: FormEvent) {
    e.preventDefault();
    if (form.current && !form.current.validateForm()) return;
    rotate.mutate(auth, { onSuccess: onClose });
  }
  return (
    <Dialog title={t("rotateCredentialTitle", { name: d.name })} onClose={onClose} wide>
      <form className="stack" onSubmit={submit} noValidate>
        <p>{t("rotateCredentialBody")}</p>
        <DependencyForm schema={type.auth_schema_json as RJSFSchema} part="auth" title={t("newCredential")} value={auth} onChange={setAuth} error={rotate.error} formRef={form} />
        <ProblemAlert error={rotate.error} />
        <DialogButtons label={t("replace")} onCancel={onClose} pending={rotate.isPending} />
      </form>
    </Dialog>
  );
}
