import { useEffect, useRef, useState } from "react";
import { useOperatorSocket } from "./operatorSocket";

// The widget repeats its typing notice every 2 s while the visitor types and sends no
// "stopped": the indicator goes out this long after the last one.
const typingFor = 5_000;

/** useVisitorTyping tells whether the visitor of the conversation is typing now: a
 * chat.typing notice of theirs came within the last seconds and no message since. */
export function useVisitorTyping(conversationId: string): boolean {
  const [typing, setTyping] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useOperatorSocket((e) => {
    if (e.conversation_id !== conversationId) return;
    const p = (e.payload ?? {}) as { typing?: unknown; author_kind?: unknown };
    if (e.type === "chat.typing" || (e.type === "chat.message" && p.author_kind === "visitor")) {
      clearTimeout(timer.current);
      const on = e.type === "chat.typing" && p.typing !== false;
      setTyping(on);
      if (on) timer.current = setTimeout(() => setTyping(false), typingFor);
    }
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  return typing;
}
