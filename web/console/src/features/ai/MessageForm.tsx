import { useId, useState, type FormEvent, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { fieldError, ProblemAlert } from "../../components/ProblemAlert";
import "./texts";

type MessageFormProps = {
  /** send sends the text; it resolves once the message is taken (then the box empties). */
  send: (content: string) => Promise<unknown>;
  sending: boolean;
  /** busy tells that the employee is at work on the conversation: messages wait. */
  busy: boolean;
  disabled: boolean;
  /** stop stops the reply being written; undefined when there is none. */
  stop?: () => void;
  stopping: boolean;
  error: unknown;
};

/** MessageForm is where the person writes to the employee, and stops a reply. */
export function MessageForm({ send, sending, busy, disabled, stop, stopping, error }: MessageFormProps) {
  const { t } = useTranslation("ai");
  const [text, setText] = useState("");
  const id = useId();
  const message = fieldError(error, "content");
  const blocked = disabled || sending || busy || !text.trim();

  function submit(e?: FormEvent) {
    e?.preventDefault();
    if (blocked) return;
    send(text).then(
      () => setText(""),
      () => {},
    );
  }

  function keyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  }

  return (
    <form className="ai-message-form stack" onSubmit={submit}>
      {disabled && <p className="muted">{t("cannotSend")}</p>}
      <div className="field">
        <label htmlFor={id}>{t("message")}</label>
        <textarea
          id={id}
          name="content"
          value={text}
          rows={3}
          maxLength={20000}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={keyDown}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${id}-hint ${id}-error` : `${id}-hint`}
        />
        <small id={`${id}-hint`} className="muted">
          {t("messageHint")}
        </small>
        {message && (
          <small id={`${id}-error`} className="field-error">
            {message}
          </small>
        )}
      </div>
      {!message && <ProblemAlert error={error} />}
      <div className="row">
        <button type="submit" className="primary" disabled={blocked}>
          {sending ? t("sending") : t("send")}
        </button>
        {stop && (
          <button type="button" onClick={stop} disabled={stopping}>
            {stopping ? t("stopping") : t("stop")}
          </button>
        )}
      </div>
    </form>
  );
}
