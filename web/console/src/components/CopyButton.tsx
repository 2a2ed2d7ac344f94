import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/** CopyButton puts text on the clipboard and says so for a moment. */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state !== "copied") return;
    const timer = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  async function copy() {
    try {
      // The clipboard exists only in secure contexts (https or localhost).
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  }
  return (
    <span className="copy">
      <button type="button" onClick={() => void copy()} aria-label={label ? `${t("copy")}: ${label}` : undefined}>
        {state === "copied" ? t("copied") : t("copy")}
      </button>
      <span role="status" className={state === "failed" ? "field-error" : "visually-hidden"}>
        {state === "copied" ? t("copied") : state === "failed" ? t("copyFailed") : ""}
      </span>
    </span>
  );
}
