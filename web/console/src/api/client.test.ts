import { describe, expect, it } from "vitest";
import { multipart } from "./client";

describe("multipart", () => {
  it("sends the files and texts as a form, and types each file's place as an empty string", async () => {
    const file = new File(["%PDF-1.7"], "invoice.pdf", { type: "application/pdf" });
    const { body, bodySerializer } = multipart({ file, kind: "invoice" });
    expect(body).toEqual({ file: "", kind: "invoice" });

    const form = bodySerializer();
    const sent = form.get("file") as File;
    expect(sent.name).toBe("invoice.pdf");
    expect(await sent.text()).toBe("%PDF-1.7");
    expect(form.get("kind")).toBe("invoice");
    expect([...form.keys()]).toEqual(["file", "kind"]);
  });
});
