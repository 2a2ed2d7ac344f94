import { useTranslation } from "react-i18next";

/** previewColor is the colour the widget draws with: web/widget.js takes accent_color only
 * as a hex colour and falls back to #2563eb. */
export function previewColor(accent: string): string {
  return /^#[0-9a-fA-F]{3,8}$/.test(accent) ? accent : "#2563eb";
}

/** WidgetPreview draws the widget as web/widget.js does on a site's page (its launcher and
 * its open panel, with the same sizes, places, colours and texts) inside a small page, by
 * React: the widget's own script never runs in the console. Title and subtitle are text. */
export function WidgetPreview({ title, subtitle, accent, position }: { title: string; subtitle: string; accent: string; position: "left" | "right" }) {
  const { t } = useTranslation("siteChat");
  const color = previewColor(accent);
  const side = position === "left" ? { left: 20 } : { right: 20 };
  return (
    <figure className="widget-preview">
      <div className="preview-site" aria-hidden="true">
        <div className="widget-panel" style={side}>
          <div className="widget-head" style={{ background: color }}>
            <b>{title}</b>
            <span>{subtitle}</span>
          </div>
          <div className="widget-messages">
            <div className="widget-bubble">{t("previewOperator")}</div>
            <div className="widget-bubble visitor" style={{ background: color }}>
              {t("previewVisitor")}
            </div>
          </div>
          <div className="widget-typing" />
          <div className="widget-form">
            <span className="widget-input" />
            <span className="widget-send" style={{ background: color }}>
              {"\u27A4"}
            </span>
          </div>
        </div>
        <div className="widget-launcher" style={{ ...side, background: color }} title={title || t("previewLauncher")}>
          {"\u{1F4AC}"}
        </div>
      </div>
      <figcaption className="muted">{t("previewNote")}</figcaption>
    </figure>
  );
}
