import { texts } from "../../lib/texts";

export const runs = texts({ title: "runs" }, { title: "runs" });
