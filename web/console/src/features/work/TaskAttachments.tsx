import { useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert } from "../../components/ProblemAlert";
import { formatFileSize } from "../../lib/fileSize";
import { useAttach, useAttachments } from "./queries";
import "./texts";

/** TaskAttachments lists a task's files with their download links (good for 15 minutes,
 * so the list reloads with the page) and uploads more, one file at a time. */
export function TaskAttachments({ taskId }: { taskId: string }) {
  const { t, i18n } = useTranslation("work");
  const { t: common } = useTranslation();
  const headingId = useId();
  const inputId = useId();
  const files = useAttachments(taskId);
  const attach = useAttach(taskId);
  const input = useRef<HTMLInputElement>(null);
  return (
    <section className="work-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{t("attachments")}</h2>
      <ProblemAlert error={files.error} />
      {files.isPending ? (
        <p className="muted">{common("loading")}</p>
      ) : files.data?.length ? (
        <ul className="attachments">
          {files.data.map((f) => (
            <li key={f.task_attachment_id}>
              <a href={f.download_url} download={f.file_name}>
                {f.file_name}
              </a>{" "}
              <span className="muted">{formatFileSize(f.size_bytes, i18n.language)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t("noAttachments")}</p>
      )}
      <div className="field">
        <label htmlFor={inputId}>{t("attachFile")}</label>
        <input
          id={inputId}
          ref={input}
          type="file"
          disabled={attach.isPending}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            attach.mutate(file, {
              onSettled: () => {
                if (input.current) input.current.value = "";
              },
            });
          }}
        />
        {attach.isPending && <small className="muted">{t("uploading")}</small>}
      </div>
      <ProblemAlert error={attach.error} />
    </section>
  );
}
