import { describe, expect, it } from "vitest";
import { readSSE, SSEParser, type SSEMessage } from "./sse";

describe("SSEParser", () => {
  it("dispatches a message at its blank line, with its id, type and data", () => {
    const p = new SSEParser();
    expect(p.push('id: 3\nevent: message.delta\ndata: {"text":"Hel')).toEqual([]);
    expect(p.push('lo"}\n\n')).toEqual([{ id: "3", event: "message.delta", data: '{"text":"Hello"}' }]);
  });

  it("joins data lines, skips comments and keeps the last id", () => {
    const p = new SSEParser();
    expect(p.push(": keep-alive\n\nid: 7\ndata: a\ndata: b\n\ndata: c\n\n")).toEqual([
      { id: "7", event: "message", data: "a\nb" },
      { id: "7", event: "message", data: "c" },
    ]);
  });

  it("reads CR LF and a CR LF split between pieces as one line end", () => {
    const p = new SSEParser();
    expect(p.push("event: done\r")).toEqual([]);
    expect(p.push("\ndata: {}\r\n\r\n")).toEqual([{ id: "", event: "done", data: "{}" }]);
  });

  it("takes the value after one space only, and a field without a colon as empty", () => {
    const p = new SSEParser();
    expect(p.push("data:  two spaces\ndata\n\n")).toEqual([{ id: "", event: "message", data: " two spaces\n" }]);
  });
});

describe("readSSE", () => {
  it("reads a body in any pieces, multi-byte characters split included, and drops an unfinished message", async () => {
    const bytes = new TextEncoder().encode('id: 1\nevent: message.delta\ndata: {"text":"Привет"}\n\nid: 2\ndata: cut');
    const pieces = [bytes.slice(0, 40), bytes.slice(40, 41), bytes.slice(41)];
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        pieces.forEach((p) => c.enqueue(p));
        c.close();
      },
    });
    const got: SSEMessage[] = [];
    await readSSE(body, (m) => got.push(m));
    expect(got).toEqual([{ id: "1", event: "message.delta", data: '{"text":"Привет"}' }]);
  });
});
