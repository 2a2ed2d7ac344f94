import { describe, expect, it } from "vitest";
import { blocks, inlines } from "./prose";

describe("a contract description", () => {
  it("keeps angle brackets as text and reads code and strong runs", () => {
    expect(inlines("`steps.<key>` is **never** <b>HTML</b>")).toEqual([
      { text: "steps.<key>", code: true },
      { text: " is " },
      { text: "never", strong: true },
      { text: " <b>HTML</b>" },
    ]);
  });

  it("reads paragraphs, a list whose items continue on the next lines, and a fenced block", () => {
    const text = "Public: no session.\nThe type decides.\n- `none`: nothing.\n- `basic`: the secret\n  as the password.\n\n```\n{\"a\": 1}\n```\nLast.";
    expect(blocks(text)).toEqual([
      { kind: "p", inlines: [{ text: "Public: no session. The type decides." }] },
      {
        kind: "ul",
        items: [
          [{ text: "none", code: true }, { text: ": nothing." }],
          [{ text: "basic", code: true }, { text: ": the secret as the password." }],
        ],
      },
      { kind: "pre", text: '{"a": 1}' },
      { kind: "p", inlines: [{ text: "Last." }] },
    ]);
  });

  it("reads a numbered list and nothing from an empty text", () => {
    expect(blocks("1. first\n2. second")).toEqual([{ kind: "ol", items: [[{ text: "first" }], [{ text: "second" }]] }]);
    expect(blocks("")).toEqual([]);
  });
});
