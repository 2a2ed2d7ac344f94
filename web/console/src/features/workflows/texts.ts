import { texts } from "../../lib/texts";

export const workflows = texts({ title: "Workflows" }, { title: "Сценарии" });
