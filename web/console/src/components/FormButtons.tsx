import { useTranslation } from "react-i18next";

/** FormButtons end a form: the button that sends it (saying so while it is sent) and cancel. */
export function FormButtons({ label, pending, onCancel, disabled }: { label: string; pending: boolean; onCancel: () => void; disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="row">
      <button type="submit" className="primary" disabled={pending || disabled}>
        {pending ? t("saving") : label}
      </button>
      <button type="button" onClick={onCancel}>
        {t("cancel")}
      </button>
    </div>
  );
}
