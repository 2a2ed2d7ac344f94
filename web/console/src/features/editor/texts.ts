import { texts } from "../../lib/texts";

export const editor = texts({ title: "editor" }, { title: "editor" });
