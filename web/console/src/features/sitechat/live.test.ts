import { describe, expect, it } from "vitest";
import { applyNotice, byNewest, safeLink, sessionOf, sinceMinutes, withMessage } from "./live";
import type { Envelope } from "./operatorSocket";
import type { Message, VisitSession } from "./queries";

const visit = (id: string, page = "Pricing"): VisitSession =>
  ({ visit_session_id: id, project_id: "p", current_title: page }) as VisitSession;
const notice = (type: Envelope["type"], payload: object): Envelope => ({ id: "n", type, sent_at: "2026-11-21T09:00:00Z", payload: payload as Envelope["payload"] });

describe("sessionOf", () => {
  it("reads the visit from the notices about visits only", () => {
    expect(sessionOf(notice("presence.update", visit("a")))?.visit_session_id).toBe("a");
    expect(sessionOf(notice("invite.accepted", visit("a")))?.visit_session_id).toBe("a");
    expect(sessionOf(notice("chat.message", { message_id: "m", visit_session_id: "a", project_id: "p" }))).toBeUndefined();
    expect(sessionOf(notice("presence.update", { visit_session_id: 1 }))).toBeUndefined();
  });
});

describe("applyNotice", () => {
  it("adds a new visit first, replaces a known one in place, and drops one that left", () => {
    const list = [visit("0002"), visit("0001")];
    const arrived = applyNotice(list, notice("presence.update", visit("0003")));
    expect(arrived.map((v) => v.visit_session_id)).toEqual(["0003", "0002", "0001"]);
    const moved = applyNotice(arrived, notice("event.batch", visit("0002", "Shipping")));
    expect(moved.map((v) => v.current_title)).toEqual(["Pricing", "Shipping", "Pricing"]);
    expect(applyNotice(moved, notice("visitor.left", visit("0002"))).map((v) => v.visit_session_id)).toEqual(["0003", "0001"]);
  });
  it("leaves the list as it is for other envelopes and unknown departures", () => {
    const list = [visit("0001")];
    expect(applyNotice(list, notice("chat.typing", { typing: true }))).toBe(list);
    expect(applyNotice(list, notice("visitor.left", visit("0009")))).toBe(list);
  });
  it("orders by visit id, newest first", () => {
    expect(byNewest([visit("01a"), visit("01c"), visit("01b")]).map((v) => v.visit_session_id)).toEqual(["01c", "01b", "01a"]);
  });
});

describe("safeLink", () => {
  it("links http and https pages only", () => {
    expect(safeLink("https://shop.test/a?b=1")).toBe("https://shop.test/a?b=1");
    expect(safeLink("javascript:alert(1)")).toBeUndefined();
    expect(safeLink("data:text/html,<b>x</b>")).toBeUndefined();
    expect(safeLink("not a url")).toBeUndefined();
  });
});

describe("sinceMinutes", () => {
  it("counts whole minutes, never below zero", () => {
    const t = Date.parse("2026-11-21T09:00:00Z");
    expect(sinceMinutes("2026-11-21T08:57:30Z", t)).toBe(2);
    expect(sinceMinutes("2026-11-21T09:05:00Z", t)).toBe(0);
  });
});

describe("withMessage", () => {
  const m = (id: string) => ({ message_id: id, body: id }) as Message;
  it("puts a message in once, in id order, whichever way it came first", () => {
    const thread = [m("01"), m("03")];
    expect(withMessage(thread, m("02")).map((x) => x.message_id)).toEqual(["01", "02", "03"]);
    expect(withMessage(thread, m("03"))).toBe(thread);
  });
});
