import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AskFirst } from "../../components/AskFirst";
import { Field } from "../../components/Field";
import { TextAreaField } from "../../components/TextAreaField";
import { ProblemAlert } from "../../components/ProblemAlert";
import { useActive } from "../settings/active";
import { NeedsWorkspace } from "../settings/NeedsWorkspace";
import { TemplatePreview } from "./TemplatePreview";
import {
  parseModes,
  useDeleteEmailTemplate,
  useDeleteMessageTemplate,
  useEmailTemplates,
  useMessageTemplates,
  useSaveEmailTemplate,
  useSaveMessageTemplate,
  type EmailTemplate,
  type MessageTemplate,
  type ParseMode,
} from "./templates";
import "./integrations.css";
import "./texts";

/** TemplatesPage keeps the project's e-mail and message templates, each edited beside a
 * preview of the text it renders. */
export function TemplatesPage() {
  const { t } = useTranslation("integrations");
  const active = useActive();
  return (
    <>
      <h1>{t("templatesTitle")}</h1>
      <p className="muted">{t("templatesIntro", syntaxExample)}</p>
      <NeedsWorkspace active={active} project>
        <EmailTemplates projectId={active.projectId} />
        <MessageTemplates projectId={active.projectId} />
      </NeedsWorkspace>
    </>
  );
}

// The template syntax is passed as values, so that i18next does not take it for its own.
const syntaxExample = { syntax: "{{ path }}", example: "{{ order_created.name }}" };

/** Editing is the template open in the editor: one of the list's, a new one, or none. */
type Editing<T> = T | "new" | null;

type TemplateListProps<T> = {
  id: string;
  title: string;
  newLabel: string;
  items: T[] | undefined;
  error: unknown;
  nameOf: (item: T) => string;
  keyOf: (item: T) => string;
  editing: Editing<T>;
  onEdit: (item: Editing<T>) => void;
  children: ReactNode;
};

/** TemplateList is one kind's list of templates, with the one being edited below it. */
function TemplateList<T>({ id, title, newLabel, items, error, nameOf, keyOf, editing, onEdit, children }: TemplateListProps<T>) {
  const { t } = useTranslation("integrations");
  const tc = useTranslation().t;
  return (
    <section className="card" aria-labelledby={id}>
      <div className="page-head">
        <h2 id={id}>{title}</h2>
        {editing === null && (
          <button type="button" className="primary" onClick={() => onEdit("new")}>
            {newLabel}
          </button>
        )}
      </div>
      <ProblemAlert error={error} />
      {!items && !error && <p className="muted">{tc("loading")}</p>}
      {items?.length === 0 && <p className="muted">{t("noTemplates")}</p>}
      {items && items.length > 0 && (
        <ul className="template-list">
          {items.map((item) => (
            <li key={keyOf(item)}>
              <button type="button" className="link" aria-current={editing !== null && editing !== "new" && keyOf(editing) === keyOf(item) ? true : undefined} onClick={() => onEdit(item)}>
                {nameOf(item)}
              </button>
            </li>
          ))}
        </ul>
      )}
      {children}
    </section>
  );
}

function EmailTemplates({ projectId }: { projectId: string }) {
  const { t } = useTranslation("integrations");
  const list = useEmailTemplates(projectId);
  const [editing, setEditing] = useState<Editing<EmailTemplate>>(null);
  return (
    <TemplateList
      id="email-templates"
      title={t("emailTemplates")}
      newLabel={t("newEmailTemplate")}
      items={list.data?.items}
      error={list.error}
      nameOf={(x) => x.name}
      keyOf={(x) => x.email_template_id}
      editing={editing}
      onEdit={setEditing}
    >
      {editing && (
        <EmailTemplateForm
          key={editing === "new" ? "new" : editing.email_template_id}
          projectId={projectId}
          template={editing === "new" ? undefined : editing}
          onDone={() => setEditing(null)}
        />
      )}
    </TemplateList>
  );
}

function MessageTemplates({ projectId }: { projectId: string }) {
  const { t } = useTranslation("integrations");
  const list = useMessageTemplates(projectId);
  const [editing, setEditing] = useState<Editing<MessageTemplate>>(null);
  return (
    <TemplateList
      id="message-templates"
      title={t("messageTemplates")}
      newLabel={t("newMessageTemplate")}
      items={list.data?.items}
      error={list.error}
      nameOf={(x) => x.name}
      keyOf={(x) => x.message_template_id}
      editing={editing}
      onEdit={setEditing}
    >
      {editing && (
        <MessageTemplateForm
          key={editing === "new" ? "new" : editing.message_template_id}
          projectId={projectId}
          template={editing === "new" ? undefined : editing}
          onDone={() => setEditing(null)}
        />
      )}
    </TemplateList>
  );
}

type FormFrameProps = {
  onSubmit: () => void;
  saving: { isPending: boolean; error: unknown };
  onCancel: () => void;
  remove?: ReactNode;
  preview: ReactNode;
  children: ReactNode;
};

/** TemplateFormFrame is a template's form beside its preview, and its buttons. */
function TemplateFormFrame({ onSubmit, saving, onCancel, remove, preview, children }: FormFrameProps) {
  const tc = useTranslation().t;
  function submit(e: FormEvent) {
    e.preventDefault();
    onSubmit();
  }
  return (
    <div className="template-form">
      <form className="stack" onSubmit={submit} noValidate>
        {children}
        <ProblemAlert error={saving.error} />
        <div className="row">
          <button type="submit" className="primary" disabled={saving.isPending}>
            {saving.isPending ? tc("saving") : tc("save")}
          </button>
          <button type="button" onClick={onCancel}>
            {tc("cancel")}
          </button>
          {remove}
        </div>
      </form>
      {preview}
    </div>
  );
}

function EmailTemplateForm({ projectId, template, onDone }: { projectId: string; template?: EmailTemplate; onDone: () => void }) {
  const { t } = useTranslation("integrations");
  const tc = useTranslation().t;
  const save = useSaveEmailTemplate(projectId, template?.email_template_id);
  const [name, setName] = useState(template?.name ?? "");
  const [subject, setSubject] = useState(template?.subject ?? "");
  const [body, setBody] = useState(template?.body ?? "");
  return (
    <TemplateFormFrame
      onSubmit={() => save.mutate({ name, subject, body }, { onSuccess: onDone })}
      saving={save}
      onCancel={onDone}
      remove={template && <DeleteEmailTemplate projectId={projectId} template={template} onDone={onDone} />}
      preview={
        <TemplatePreview
          parts={[
            { label: t("subject"), text: subject },
            { label: t("body"), text: body },
          ]}
        />
      }
    >
      <Field label={tc("name")} name="name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} error={save.error} />
      <Field label={t("subject")} name="subject" maxLength={998} hint={t("templateHint", syntaxExample)} value={subject} onChange={(e) => setSubject(e.target.value)} error={save.error} />
      <TextAreaField label={t("body")} name="body" rows={10} value={body} onChange={(e) => setBody(e.target.value)} error={save.error} />
    </TemplateFormFrame>
  );
}

function MessageTemplateForm({ projectId, template, onDone }: { projectId: string; template?: MessageTemplate; onDone: () => void }) {
  const { t } = useTranslation("integrations");
  const tc = useTranslation().t;
  const save = useSaveMessageTemplate(projectId, template?.message_template_id);
  const [name, setName] = useState(template?.name ?? "");
  const [text, setText] = useState(template?.text ?? "");
  const [parseMode, setParseMode] = useState<ParseMode>(template?.parse_mode ?? "");
  return (
    <TemplateFormFrame
      onSubmit={() => save.mutate({ name, text, parse_mode: parseMode }, { onSuccess: onDone })}
      saving={save}
      onCancel={onDone}
      remove={template && <DeleteMessageTemplate projectId={projectId} template={template} onDone={onDone} />}
      preview={<TemplatePreview parts={[{ label: t("text"), text }]} />}
    >
      <Field label={tc("name")} name="name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} error={save.error} />
      <TextAreaField label={t("text")} name="text" rows={6} maxLength={4096} value={text} onChange={(e) => setText(e.target.value)} error={save.error} />
      <div className="field">
        <label htmlFor="message-parse-mode">{t("parseMode")}</label>
        <select id="message-parse-mode" value={parseMode} onChange={(e) => setParseMode(e.target.value as ParseMode)}>
          {parseModes.map((m) => (
            <option key={m} value={m}>
              {m === "" ? t("plainText") : m}
            </option>
          ))}
        </select>
        <small className="muted">{t("parseModeHint")}</small>
      </div>
    </TemplateFormFrame>
  );
}

function DeleteEmailTemplate({ projectId, template, onDone }: { projectId: string; template: EmailTemplate; onDone: () => void }) {
  const remove = useDeleteEmailTemplate(projectId, template.email_template_id);
  return <DeleteTemplate step={remove} onConfirm={() => remove.mutate(undefined, { onSuccess: onDone })} />;
}

function DeleteMessageTemplate({ projectId, template, onDone }: { projectId: string; template: MessageTemplate; onDone: () => void }) {
  const remove = useDeleteMessageTemplate(projectId, template.message_template_id);
  return <DeleteTemplate step={remove} onConfirm={() => remove.mutate(undefined, { onSuccess: onDone })} />;
}

/** DeleteTemplate asks before it deletes the template; the form shows the refusal. */
function DeleteTemplate({ step, onConfirm }: { step: { isPending: boolean }; onConfirm: () => void }) {
  const { t } = useTranslation("integrations");
  const tc = useTranslation().t;
  return <AskFirst label={tc("delete")} question={t("deleteQuestion")} pending={step.isPending} onConfirm={onConfirm} />;
}
