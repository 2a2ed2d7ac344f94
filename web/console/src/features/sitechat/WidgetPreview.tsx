import { useTranslation } from "react-i18next";

/** previewColor is the colour the widget draws with: web/widget.js takes accent_color only
 * as a hex colour and falls back to #2563eb. */
export function previewColor(accent: string): string {
  return /^#[0-9a-fA-F]{3,8}$/.test(accent) ? accent : "#2563eb";
}

// The widget's icons, as web/widget.js draws them (stroked: an outline, else filled).
const icons = {
  chat: { d: "M12 3C6.5 3 2 6.6 2 11c0 2.4 1.3 4.5 3.4 6l-.9 4 4.6-2.4c.9.2 1.9.4 2.9.4 5.5 0 10-3.6 10-8s-4.5-8-10-8z", stroked: false },
  send: { d: "M2.5 20.5 22 12 2.5 3.5v6.5l13 2-13 2z", stroked: false },
  attach: { d: "M21 11.5l-8.6 8.6a5 5 0 0 1-7.1-7.1l8.6-8.6a3.3 3.3 0 0 1 4.7 4.7l-8.6 8.6a1.7 1.7 0 0 1-2.4-2.4l7.9-7.9", stroked: true },
};

function WidgetIcon({ name, size }: { name: keyof typeof icons; size: number }) {
  const { d, stroked } = icons[name];
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      {stroked ? <path d={d} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" /> : <path d={d} fill="currentColor" />}
    </svg>
  );
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
            <span className="widget-attach">
              <WidgetIcon name="attach" size={20} />
            </span>
            <span className="widget-send" style={{ background: color }}>
              <WidgetIcon name="send" size={20} />
            </span>
          </div>
        </div>
        <div className="widget-launcher" style={{ ...side, background: color }} title={title || t("previewLauncher")}>
          <WidgetIcon name="chat" size={28} />
        </div>
      </div>
      <figcaption className="muted">{t("previewNote")}</figcaption>
    </figure>
  );
}
