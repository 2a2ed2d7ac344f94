import type { ReactNode } from "react";

/** Fact is one term and its value in a list of a run's or an action's facts (a <dl>). */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
