import { useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ProblemAlert, fieldError } from "../../components/ProblemAlert";
import { SelectField } from "../../components/SelectField";
import { formatTimestamp } from "../../lib/dates";
import { formatFileSize } from "../../lib/fileSize";
import { documentKinds, useDocuments, useUploadDocument, type PaymentDocument } from "./billing";
import "./texts";

/** DocumentsSection lists the action's documents (invoices, acts, receipts), each a download,
 * and uploads more. */
export function DocumentsSection({ actionId }: { actionId: string }) {
  const { t, i18n } = useTranslation("billing");
  const { t: common } = useTranslation();
  const documents = useDocuments(actionId);
  return (
    <section className="panel stack" aria-labelledby="documents-title">
      <h2 id="documents-title">{t("documents")}</h2>
      <ProblemAlert error={documents.error} />
      {documents.isPending && <p className="muted">{common("loading")}</p>}
      {documents.data?.items.length === 0 && <p className="muted">{t("noDocuments")}</p>}
      {documents.data && documents.data.items.length > 0 && (
        <ul className="part-list">
          {documents.data.items.map((d) => (
            <li key={d.payment_action_document_id}>
              <div>
                {/* The link works for 15 minutes; the list is read again whenever it is shown. */}
                <a href={d.download_url} download={d.file_name}>
                  {d.file_name}
                </a>
                <div className="muted">
                  {t(`kind_${d.kind}`)} · {formatFileSize(d.size_bytes, i18n.language)} · {formatTimestamp(d.created_at, i18n.language)}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <UploadForm actionId={actionId} />
    </section>
  );
}

function UploadForm({ actionId }: { actionId: string }) {
  const { t } = useTranslation("billing");
  const upload = useUploadDocument(actionId);
  const fileRef = useRef<HTMLInputElement>(null);
  const [kind, setKind] = useState<PaymentDocument["kind"]>("invoice");
  const fileId = useId();
  const fileProblem = fieldError(upload.error, "file");
  function submit(e: FormEvent) {
    e.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!file) return;
    upload.mutate(
      { file, kind },
      {
        onSuccess: () => {
          if (fileRef.current) fileRef.current.value = "";
        },
      },
    );
  }
  return (
    <form className="row align-end" onSubmit={submit} aria-label={t("uploadDocument")}>
      <div className="field">
        <label htmlFor={fileId}>{t("file")}</label>
        <input
          id={fileId}
          ref={fileRef}
          type="file"
          accept="application/pdf,image/png,image/jpeg,image/webp,text/plain"
          aria-invalid={fileProblem ? true : undefined}
          aria-describedby={fileProblem ? `${fileId}-error` : undefined}
        />
        {fileProblem && (
          <small id={`${fileId}-error`} className="field-error">
            {fileProblem}
          </small>
        )}
      </div>
      <SelectField label={t("kind")} name="kind" value={kind} onChange={(e) => setKind(documentKinds.find((k) => k === e.target.value) ?? kind)} error={upload.error}>
        {documentKinds.map((k) => (
          <option key={k} value={k}>
            {t(`kind_${k}`)}
          </option>
        ))}
      </SelectField>
      <button type="submit" disabled={upload.isPending}>
        {upload.isPending ? t("uploading") : t("upload")}
      </button>
      <ProblemAlert error={upload.error && !fileProblem ? upload.error : null} />
    </form>
  );
}
