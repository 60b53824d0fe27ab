import type { ReactNode } from "react";

/** A column of a {@link DataTable}: its header, right-aligned when it holds numbers. */
export type DataTableColumn = string | { label: string; numeric: true };

/**
 * A table in its own scrolling box (wide tables never widen the page): the column headers, an
 * "Actions" header for screen readers when the rows end with buttons, and the rows. With a `label`
 * the box is a named region that takes keyboard focus, so a wide table scrolls from the keyboard.
 */
export function DataTable(props: { label?: string; columns: readonly DataTableColumn[]; actions?: boolean; children: ReactNode }) {
  return (
    // A box that scrolls must be reachable from the keyboard (arrow keys scroll it once focused): a
    // labelled region in the tab order, for tables without a button or link of their own too.
    <div className="table-wrap" {...(props.label ? { role: "region", "aria-label": props.label, tabIndex: 0 } : {})}>
      <table aria-label={props.label}>
        <thead>
          <tr>
            {props.columns.map((column) =>
              typeof column === "string" ? (
                <th key={column} scope="col">
                  {column}
                </th>
              ) : (
                <th key={column.label} scope="col" className="numeric">
                  {column.label}
                </th>
              ),
            )}
            {props.actions ? (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
