import { useTranslation } from "react-i18next";

/** FormButtons ends a form that creates something: its submit button (saying so while the
 * request is out) and Cancel. */
export function FormButtons({ label, pending, onCancel }: { label: string; pending: boolean; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="row">
      <button type="submit" className="primary" disabled={pending}>
        {pending ? t("saving") : label}
      </button>
      <button type="button" onClick={onCancel}>
        {t("cancel")}
      </button>
    </div>
  );
}
