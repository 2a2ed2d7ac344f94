import type { ReactNode } from "react";

/** ListTable is a list shown as a table: the names of its columns, then, when `actions`
 * names it, a last column of each row's buttons, named for assistive technology only. */
export function ListTable({ columns, actions, children }: { columns: string[]; actions?: string; children: ReactNode }) {
  return (
    <table className="list">
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col" key={c}>
              {c}
            </th>
          ))}
          {actions && (
            <th scope="col">
              <span className="visually-hidden">{actions}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
