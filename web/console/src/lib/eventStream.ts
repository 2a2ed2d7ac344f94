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
 * open from where the last stream stopped. The stream is closed while the page is hidden
 * (pagehide) and opened again when it is shown from the back/forward cache. */
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
  // A page left open keeps its stream from the back/forward cache, where a page with an open
  // connection is not kept: it is closed when the page is hidden and opened again when
  // the page is shown from the cache, so going back never finds a page stuck loading.
  const hide = () => {
    source?.close();
    clearTimeout(reopen);
  };
  const show = (e: PageTransitionEvent) => {
    if (!e.persisted || closed) return;
    delay = reconnectFirst;
    start();
  };
  addEventListener("pagehide", hide);
  addEventListener("pageshow", show);
  start();
  return {
    received: () => {
      delay = reconnectFirst;
    },
    close: () => {
      closed = true;
      removeEventListener("pagehide", hide);
      removeEventListener("pageshow", show);
      source?.close();
      clearTimeout(reopen);
    },
  };
}
