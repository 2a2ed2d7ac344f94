import { useEffect, useId, useRef, useState, type MouseEvent } from "react";

/** useDisclosure is a button that shows and hides a panel below it, as a phone's menu does:
 * the button says whether the panel is open (aria-expanded) and names it (aria-controls);
 * Escape closes it, giving the focus back to the button when it was in the panel; following
 * a link in the panel closes it. */
export function useDisclosure() {
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const escape = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      const focus = document.activeElement;
      setOpen(false);
      if (focus === button.current || panel.current?.contains(focus)) button.current?.focus();
    };
    document.addEventListener("keydown", escape);
    return () => document.removeEventListener("keydown", escape);
  }, [open]);

  return {
    open,
    close: () => setOpen(false),
    button: { ref: button, type: "button", "aria-expanded": open, "aria-controls": id, onClick: () => setOpen(!open) } as const,
    panel: {
      ref: panel,
      id,
      onClick: (e: MouseEvent) => {
        if (e.target instanceof Element && e.target.closest("a")) setOpen(false);
      },
    },
  };
}
