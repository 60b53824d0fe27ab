import type { ReactNode } from "react";

/** A column of a {@link DataTable}: its header, right-aligned when it holds numbers. */
export type DataTableColumn = string | { label: string; numeric: true };

/**
 * A table in its own scrolling box (wide tables never widen the page): the column headers, an
 * "Actions" header for screen readers when the rows end with buttons, and the rows.
 */
export function DataTable(props: { label?: string; columns: readonly DataTableColumn[]; actions?: boolean; children: ReactNode }) {
  return (
    <div className="table-wrap">
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
