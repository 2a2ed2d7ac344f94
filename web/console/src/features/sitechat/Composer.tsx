import { useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert, fieldError } from "../../components/ProblemAlert";
import { TextAreaField } from "../../components/TextAreaField";
import { send } from "./operatorSocket";
import { useSendFile, useSendMessage } from "./queries";

// A typing notice at most this often while the operator types.
const typingEvery = 2_000;

/** Composer writes into a conversation: a reply (Enter sends, Shift+Enter breaks the
 * line) and files; while the operator types, the visitor sees it (chat.typing). */
export function Composer({ conversationId }: { conversationId: string }) {
  const { t } = useTranslation("siteChat");
  const [body, setBody] = useState("");
  const message = useSendMessage(conversationId);
  const file = useSendFile(conversationId);
  const picker = useRef<HTMLInputElement>(null);
  const lastTyping = useRef(0);

  function typing(on: boolean) {
    // Best effort: a notice the socket cannot carry is not worth an error.
    send("chat.typing", { typing: on }, { conversation_id: conversationId }).catch(() => {});
  }

  function change(value: string) {
    setBody(value);
    const now = Date.now();
    if (value && now - lastTyping.current >= typingEvery) {
      lastTyping.current = now;
      typing(true);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const text = body.trim();
    if (!text || message.isPending) return;
    message.mutate(text, {
      onSuccess: () => {
        setBody("");
        lastTyping.current = 0;
        typing(false);
      },
    });
  }

  function keyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      e.currentTarget.form?.requestSubmit();
    }
  }

  const error = message.error ?? file.error;
  return (
    <form className="composer" onSubmit={submit}>
      <TextAreaField label={t("reply")} name="body" rows={3} maxLength={10000} value={body} error={message.error} onChange={(e) => change(e.target.value)} onKeyDown={keyDown} />
      {error && !fieldError(error, "body") ? <ProblemAlert error={error} /> : null}
      <div className="row">
        <button type="submit" className="primary" disabled={message.isPending || !body.trim()}>
          {message.isPending ? t("sending") : t("send")}
        </button>
        <button type="button" onClick={() => picker.current?.click()} disabled={file.isPending}>
          {file.isPending ? t("attaching") : t("attach")}
        </button>
        <input
          ref={picker}
          type="file"
          hidden
          aria-label={t("attach")}
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            e.target.value = "";
            if (chosen) file.mutate(chosen);
          }}
        />
      </div>
    </form>
  );
}
