// How the desk's views follow the operator socket's notices (docs/site-chat-sockets.md):
// the notices about a visit carry the SiteVisitorSession as it now is, so a view replaces
// its copy with it; a visitor who left is dropped from who is on the site.
import type { Envelope } from "./operatorSocket";
import type { Message, VisitSession } from "./queries";

/** sessionNotices are the notices whose payload is a SiteVisitorSession. */
const sessionNotices = new Set<Envelope["type"]>([
  "presence.update",
  "event.batch",
  "visitor.left",
  "operator.invite",
  "invite.seen",
  "invite.accepted",
  "invite.declined",
  "monitoring.start",
  "monitoring.stop",
]);

/** sessionOf is the visit session a notice carries, or undefined for other envelopes. */
export function sessionOf(e: Envelope): VisitSession | undefined {
  if (!sessionNotices.has(e.type) || !e.payload) return undefined;
  const s = e.payload as Partial<VisitSession>;
  return typeof s.visit_session_id === "string" && typeof s.project_id === "string" ? (s as VisitSession) : undefined;
}

/** applyNotice is who is on the site after the notice: the visit replaced or added, or
 * removed when the visitor left. The newest visits come first (their ids are UUIDv7). */
export function applyNotice(visitors: VisitSession[], e: Envelope): VisitSession[] {
  const s = sessionOf(e);
  if (!s) return visitors;
  const others = visitors.filter((v) => v.visit_session_id !== s.visit_session_id);
  if (e.type === "visitor.left") return others.length === visitors.length ? visitors : others;
  return byNewest([...others, s]);
}

/** byNewest orders visits newest first. */
export function byNewest(visitors: VisitSession[]): VisitSession[] {
  return [...visitors].sort((a, b) => (a.visit_session_id < b.visit_session_id ? 1 : a.visit_session_id > b.visit_session_id ? -1 : 0));
}

/** safeLink is a page address fit for a link: http or https only, so a visitor's report of
 * their page can never become a javascript: link. */
export function safeLink(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** sinceMinutes is how many whole minutes passed from the RFC 3339 time to now. */
export function sinceMinutes(iso: string, now: number): number {
  return Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
}

/** withMessage is the thread with the message in it once, in order of ids (UUIDv7: the
 * order they were posted), whether it came by the answer or by the socket first. */
export function withMessage(thread: Message[], m: Message): Message[] {
  if (thread.some((x) => x.message_id === m.message_id)) return thread;
  return [...thread, m].sort((a, b) => (a.message_id < b.message_id ? -1 : a.message_id > b.message_id ? 1 : 0));
}
