import { useMemo } from "react";
import { blocks, type Inline } from "./prose";

function Runs({ runs }: { runs: Inline[] }) {
  return runs.map((run, i) => (run.code ? <code key={i}>{run.text}</code> : run.strong ? <strong key={i}>{run.text}</strong> : run.text));
}

/** Prose shows a description of the contract: its paragraphs, lists and code, as text. */
export function Prose({ text, className }: { text: string; className?: string }) {
  const read = useMemo(() => blocks(text), [text]);
  if (read.length === 0) return null;
  return (
    <div className={["prose", className].filter(Boolean).join(" ")}>
      {read.map((block, i) => {
        switch (block.kind) {
          case "p":
            return (
              <p key={i}>
                <Runs runs={block.inlines} />
              </p>
            );
          case "pre":
            return <pre key={i}>{block.text}</pre>;
          default: {
            const List = block.kind;
            return (
              <List key={i}>
                {block.items.map((item, j) => (
                  <li key={j}>
                    <Runs runs={item} />
                  </li>
                ))}
              </List>
            );
          }
        }
      })}
    </div>
  );
}
