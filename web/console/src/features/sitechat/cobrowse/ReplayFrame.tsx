import { Replayer } from "@rrweb/replay";
import { useEffect, useRef, useState } from "react";

/** viewPage is the empty page the visitor's page is drawn into: served under a policy of
 * its own (no script at all; the visitor's styles, images and fonts allowed, which the
 * console's policy forbids), and framed sandboxed without scripts. The console's script
 * builds the view from outside, through the frame's DOM; rrweb's Replayer adds a frame of
 * its own inside, sandboxed likewise, and never lets the page's scripts run. */
const viewPage = "/site-chat/cobrowse-view.html";

// The pointer and its click, drawn by the view page's styles (rrweb's class names).
const viewStyles = `
html, body { margin: 0; overflow: hidden; background: #fff; }
.replayer-wrapper { position: relative; transform-origin: 0 0; }
.replayer-wrapper > iframe { border: 0; display: block; }
.replayer-mouse { position: absolute; width: 18px; height: 18px; margin: -2px 0 0 -2px; z-index: 10;
  transition: left 0.05s linear, top 0.05s linear;
  background: no-repeat url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 18 18'%3E%3Cpath d='M2 1l13 8-6 1.5L6 17z' fill='%23111' stroke='%23fff' stroke-width='1.5'/%3E%3C/svg%3E"); }
.replayer-mouse::after { content: ""; position: absolute; left: -9px; top: -9px; width: 22px; height: 22px; border-radius: 50%;
  background: rgb(36 84 214 / 45%); opacity: 0; }
.replayer-mouse.active::after { animation: click 0.3s ease-out 1; }
.replayer-mouse.touch-device { background: none; width: 36px; height: 36px; margin: -18px 0 0 -18px; border: 3px solid rgb(36 84 214 / 0); border-radius: 50%; }
.replayer-mouse.touch-device.touch-active { border-color: rgb(36 84 214 / 90%); }
@keyframes click { 0% { opacity: 0.8; transform: scale(0.4); } 100% { opacity: 0; transform: scale(1.4); } }
`;

/** scaleView scales the Replayer's wrapper, the first element of root, to the frame. */
function scaleView(root: HTMLElement | undefined, scale: number) {
  const wrapper = root?.firstElementChild as HTMLElement | null | undefined;
  if (wrapper) wrapper.style.transform = `scale(${scale})`;
}

/** A Start makes the Replayer that draws into root, the view page's element; it runs once
 * the frame has loaded, and the Replayer is destroyed when the frame goes. */
export type Start = (root: HTMLElement) => Replayer;

/** ReplayFrame shows what a Replayer draws, scaled to the panel's width. */
export function ReplayFrame({ label, start }: { label: string; start: Start }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const view = useRef<{ r: Replayer; root: HTMLElement }>(undefined);
  const [page, setPage] = useState({ width: 0, height: 0 });
  const [width, setWidth] = useState(0);

  function loaded() {
    const doc = frame.current?.contentDocument;
    if (!doc || view.current) return;
    const style = doc.createElement("style");
    style.textContent = viewStyles;
    doc.head.append(style);
    const root = doc.createElement("div");
    doc.body.append(root);
    const r = start(root);
    r.on("resize", (d) => {
      const { width, height } = d as { width: number; height: number };
      setPage({ width, height });
    });
    // A recording's first page is sized in the constructor, before anyone listens.
    if (r.iframe.width) setPage({ width: Number(r.iframe.width), height: Number(r.iframe.height) });
    view.current = { r, root };
  }

  useEffect(() => () => view.current?.r.destroy(), []);

  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const seen = new ResizeObserver(([entry]) => setWidth(entry.contentRect.width));
    seen.observe(el);
    return () => seen.disconnect();
  }, []);

  const scale = page.width && width ? Math.min(1, width / page.width) : 1;
  useEffect(() => scaleView(view.current?.root, scale), [scale, page]);

  return (
    <iframe
      ref={frame}
      className="cobrowse-frame"
      title={label}
      src={viewPage}
      sandbox="allow-same-origin"
      referrerPolicy="no-referrer"
      onLoad={loaded}
      style={{ height: page.height ? Math.ceil(page.height * scale) : undefined }}
    />
  );
}
