import { texts } from "../../lib/texts";

export const webhooks = texts({ title: "webhooks" }, { title: "webhooks" });
