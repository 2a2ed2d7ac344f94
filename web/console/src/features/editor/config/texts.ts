import { texts } from "../../../lib/texts";

export const config = texts({ title: "config" }, { title: "config" });
