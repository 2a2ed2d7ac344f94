// Server-Sent Events read from a fetch body. The AI employee's stream answers a POST (the
// message it carries starts the turn), which the browser's EventSource cannot send, so the
// page reads the body itself: this is the format's parser (the WHATWG "event stream"
// rules the page needs: id, event, data over several lines, comments, CR LF).

/** SSEMessage is one dispatched message: its id (the last one seen), type and data. */
export type SSEMessage = { id: string; event: string; data: string };

/** SSEParser takes the stream's text in pieces of any size and answers the messages each
 * piece completes. */
export class SSEParser {
  private buffer = "";
  private id = "";
  private event = "";
  private data: string[] = [];

  push(text: string): SSEMessage[] {
    this.buffer += text;
    const out: SSEMessage[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      // A lone CR at the end of a piece may be the first half of CR LF: wait for more.
      if (this.buffer[end] === "\r" && end === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith("\r\n", end) ? 2 : 1));
      const message = this.line(line);
      if (message) out.push(message);
    }
    return out;
  }

  private line(line: string): SSEMessage | undefined {
    if (line === "") {
      if (this.data.length === 0) {
        this.event = "";
        return undefined;
      }
      const message = { id: this.id, event: this.event || "message", data: this.data.join("\n") };
      this.event = "";
      this.data = [];
      return message;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\0")) this.id = value;
    return undefined;
  }
}

/** readSSE reads the body to its end, handing each message to onMessage in order. */
export async function readSSE(body: ReadableStream<Uint8Array>, onMessage: (m: SSEMessage) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SSEParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const m of parser.push(decoder.decode(value, { stream: true }))) onMessage(m);
    }
    // A message the stream ended before its blank line is dropped, as the format says.
    for (const m of parser.push(decoder.decode())) onMessage(m);
  } finally {
    reader.releaseLock();
  }
}
