import { texts } from "../../lib/texts";

export const workflows = texts(
  {
    title: "Workflows",
    workflowPages: "Workflow pages",
    tabEditor: "Editor",
    tabVersions: "Versions",
    tabRuns: "Runs",
    tabWebhooks: "Webhooks",
    tabImport: "AI patch",
  },
  {
    title: "Сценарии",
    workflowPages: "Страницы сценария",
    tabEditor: "Редактор",
    tabVersions: "Версии",
    tabRuns: "Запуски",
    tabWebhooks: "Вебхуки",
    tabImport: "Патч ИИ",
  },
);
