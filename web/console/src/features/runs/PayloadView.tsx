import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { isEmptyPayload, previewJson } from "./payload";
import "./texts";

// What a payload shows first, and how much more each "Show more" adds: a 5 MB output is
// never written into the page unless asked for, piece by piece.
const firstChars = 16 * 1024;
const moreFactor = 4;

type PayloadViewProps = {
  title: string;
  value: unknown;
  /** name is the downloaded file's name. */
  name: string;
  open?: boolean;
};

/** PayloadView is one JSON payload of an action, collapsed; when opened it shows the first
 * part of its JSON, with more and a download on demand. */
export function PayloadView({ title, value, name, open = false }: PayloadViewProps) {
  const { t } = useTranslation("runs");
  const [expanded, setExpanded] = useState(open);
  const empty = isEmptyPayload(value);
  return (
    <details className="payload" open={open} onToggle={(e) => setExpanded(e.currentTarget.open)}>
      <summary>
        {title} {empty && <span className="muted">({t("empty")})</span>}
      </summary>
      {expanded && !empty && <PayloadText title={title} value={value} name={name} />}
    </details>
  );
}

function PayloadText({ title, value, name }: { title: string; value: unknown; name: string }) {
  const { t } = useTranslation("runs");
  const [limit, setLimit] = useState(firstChars);
  const preview = useMemo(() => previewJson(value, limit), [value, limit]);
  const download = () => {
    const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `${name}.json`;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <>
      <pre className="payload-text" tabIndex={0} aria-label={title}>
        {preview.text}
        {!preview.complete && "…"}
      </pre>
      {!preview.complete && (
        <div className="row">
          <span className="muted">{t("payloadShown", { shown: limit >= 1024 * 1024 ? t("sizeMb", { n: limit / (1024 * 1024) }) : t("sizeKb", { n: limit / 1024 }) })}</span>
          <button type="button" onClick={() => setLimit((l) => l * moreFactor)}>
            {t("showMore")}
          </button>
          <button type="button" onClick={download}>
            {t("download")}
          </button>
        </div>
      )}
    </>
  );
}
