import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { SelectField } from "../../components/SelectField";
import { TextAreaField } from "../../components/TextAreaField";
import { ProblemAlert, fieldError } from "../../components/ProblemAlert";
import { inviteTemplates, useInvite, useWidgets, type VisitSession } from "./queries";

/** InviteForm invites a visitor to chat: with one of the widget's invitation templates,
 * with the operator's own words, or with the widget's default when both are left empty;
 * optionally opening the panel at once. onInvited gets the session as it now is. */
export function InviteForm({
  visitSessionId,
  projectId,
  chatWidgetId,
  onInvited,
  onCancel,
}: {
  visitSessionId: string;
  projectId: string;
  chatWidgetId: string;
  onInvited: (s: VisitSession) => void;
  /** onCancel, when given, adds a Cancel button (the form in a dialog). */
  onCancel?: () => void;
}) {
  const { t: common } = useTranslation();
  const { t } = useTranslation("siteChat");
  const widget = useWidgets(projectId).data?.find((w) => w.chat_widget_id === chatWidgetId);
  const templates = inviteTemplates(widget);
  const [template, setTemplate] = useState("");
  const [message, setMessage] = useState("");
  const [force, setForce] = useState(false);
  const [done, setDone] = useState(false);
  const invite = useInvite(visitSessionId);
  const chosen = templates.find(([name]) => name === template);

  function submit(e: FormEvent) {
    e.preventDefault();
    setDone(false);
    const body = template ? { template, force } : { message: message.trim() || undefined, force };
    invite.mutate(body, {
      onSuccess: (s) => {
        setDone(true);
        onInvited(s);
      },
    });
  }

  const own = !template;
  return (
    <form className="stack" onSubmit={submit} aria-label={t("inviteTitle")}>
      {templates.length > 0 && (
        <SelectField label={t("inviteTemplate")} name="template" error={invite.error} value={template} onChange={(e) => setTemplate(e.target.value)}>
          <option value="">{t("ownMessage")}</option>
          {templates.map(([name]) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
      )}
      {own ? (
        <TextAreaField
          label={t("inviteMessage")}
          name="message"
          error={invite.error}
          maxLength={1000}
          rows={3}
          placeholder={t("inviteDefault")}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
      ) : (
        <p className="invite-quote">{chosen?.[1]}</p>
      )}
      <label className="inline">
        <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} />
        {t("inviteForce")}
      </label>
      {invite.error && !fieldError(invite.error, "message") && !fieldError(invite.error, "template") ? <ProblemAlert error={invite.error} /> : null}
      <div className="row">
        <button type="submit" className="primary" disabled={invite.isPending}>
          {invite.isPending ? t("sending") : t("invite")}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            {common("cancel")}
          </button>
        )}
        <span role="status" className="field-ok">
          {done ? t("invited") : ""}
        </span>
      </div>
    </form>
  );
}
