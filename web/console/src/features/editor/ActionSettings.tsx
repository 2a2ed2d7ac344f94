import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import type { ActionConfigPanelProps } from "./config/ActionConfigPanel";
import "./texts";

// The form machinery (schemas, validators, widgets) loads when an action is first opened,
// so the canvas is interactive without it.
const ActionConfigPanel = lazy(() => import("./config/ActionConfigPanel").then((m) => ({ default: m.ActionConfigPanel })));

/** ActionSettings is the side panel with the selected action's settings. */
export function ActionSettings(props: ActionConfigPanelProps) {
  const { t } = useTranslation("editor");
  return (
    <aside className="action-settings" aria-label={t("settings")}>
      <Suspense fallback={<p className="muted">{t("settingsLoading")}</p>}>
        <ActionConfigPanel {...props} />
      </Suspense>
    </aside>
  );
}
