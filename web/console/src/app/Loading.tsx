import { useTranslation } from "react-i18next";

/** Loading holds a page's place while its data or its script loads. */
export function Loading() {
  const { t } = useTranslation();
  return <p className="page muted">{t("loading")}</p>;
}
