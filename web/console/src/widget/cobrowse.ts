// The co-browse recorder the site chat widget (web/widget.js) loads from
// /site-chat/cobrowse.js when monitoring becomes active, after the visitor consented, and
// only then, so the widget stays small for everyone else. It records the page with rrweb,
// masked in this browser before anything leaves it:
// - every form field's value is masked (each character becomes *), a password field's
//   always; a field the site marks data-chat-unmask is shown as typed (never a password);
// - the text of an element marked data-chat-mask, and of everything inside it, is masked;
// - an element marked data-chat-block is not recorded at all: the operator sees an empty
//   box of its size. The widget's own element is blocked so.
// Built by web/console/vite.cobrowse.config.ts into an IIFE whose global is SiteChatCobrowse.
import { record } from "@rrweb/record";
import type { eventWithTime } from "@rrweb/types";
import { frameType, navigationTag, scrub, type FrameType } from "./frames";

export type Send = (type: FrameType, event: eventWithTime) => void;

/** A Recording is the page being recorded: stop ends it, snapshot sends the whole page
 * again (after the widget's socket reconnected, so the operator's view is whole again). */
export type Recording = { stop(): void; snapshot(): void };

const mask = (text: string) => "*".repeat(text.length);

/** start records the page, handing every event to send with the envelope type it travels in. */
export function start(send: Send): Recording {
  let href = location.href;
  const stop = record({
    emit(e) {
      send(frameType(e, record.mirror.getId(document)), scrub(e));
      // A single-page site's navigation: the address changed and the page with it.
      if (location.href !== href) {
        href = location.href;
        record.addCustomEvent(navigationTag, { href, title: document.title });
      }
    },
    maskAllInputs: true,
    maskInputFn: (text, el) =>
      el?.hasAttribute("data-chat-unmask") && (el as HTMLInputElement).type !== "password" && !el.hasAttribute("data-rr-is-password")
        ? text
        : mask(text),
    maskTextSelector: "[data-chat-mask]",
    blockSelector: "[data-chat-block],[data-site-chat]",
    slimDOMOptions: {
      script: true,
      comment: true,
      headFavicon: true,
      headWhitespace: true,
      headMetaSocial: true,
      headMetaRobots: true,
      headMetaHttpEquiv: true,
      headMetaVerification: true,
      headMetaAuthorship: true,
      headMetaDescKeywords: true,
    },
    // The pointer every 50 ms, sent in batches every 150 ms; a field's last value only.
    sampling: { mousemove: 50, mousemoveCallback: 150, scroll: 100, input: "last", media: 800 },
    // A whole page every 5 minutes, so an operator who opens the view later (or scrubs back)
    // starts from a recent one.
    checkoutEveryNms: 5 * 60_000,
    recordCanvas: false,
    collectFonts: false,
    inlineImages: false,
  });
  return {
    stop: () => stop?.(),
    snapshot: () => record.takeFullSnapshot(true),
  };
}
