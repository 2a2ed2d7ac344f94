import { useTranslation } from "react-i18next";

/** SiteChatPage answers the site chat links the service hands out until the desk is built. */
export function SiteChatPage() {
  const { t } = useTranslation();
  return (
    <section className="page narrow">
      <h1>{t("notBuiltYet")}</h1>
      <p>
        <a href="/api/v1/docs/endpoints">{t("apiReference")}</a>
      </p>
    </section>
  );
}
