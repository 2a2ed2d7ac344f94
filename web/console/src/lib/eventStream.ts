// One way to hold a Server-Sent Events stream open across what the browser's EventSource
// gives up on.
import { refreshOnce } from "../api/client";

const reconnectFirst = 1000;
const reconnectMax = 30_000;

export type EventStream = {
  /** received says the stream delivers again: the next give-up waits the shortest delay. */
  received(): void;
  close(): void;
};

/** followStream opens the stream `open` makes and keeps it open: the browser reconnects by
 * itself after a network hiccup, but gives up on an HTTP error (an expired session's 401
 * among them) or a server that is gone; then the session is refreshed and `open` called
 * again after a delay, doubling from 1 s to 30 s. `open` wires its own listeners, and may
 * open from where the last stream stopped. */
export function followStream(open: () => EventSource, onError?: () => void): EventStream {
  let source: EventSource | undefined;
  let reopen: ReturnType<typeof setTimeout> | undefined;
  let delay = reconnectFirst;
  let closed = false;
  const start = () => {
    source = open();
    source.addEventListener("error", () => {
      onError?.();
      if (source?.readyState !== EventSource.CLOSED || closed) return;
      reopen = setTimeout(() => {
        void refreshOnce().finally(() => {
          if (!closed) start();
        });
      }, delay);
      delay = Math.min(delay * 2, reconnectMax);
    });
  };
  start();
  return {
    received: () => {
      delay = reconnectFirst;
    },
    close: () => {
      closed = true;
      source?.close();
      clearTimeout(reopen);
    },
  };
}
