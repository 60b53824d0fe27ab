import type { ReactNode } from "react";
import { DataTable, type DataTableColumn } from "./data-table.js";
import type { QueryState } from "./query-view.js";
import { ResourceList } from "./resource-list.js";

/**
 * A {@link ResourceList} shown as a {@link DataTable}: loading, failed, `empty`, or one row per
 * item (`children` renders a `<tr>` with its key).
 */
export function ResourceTable<Item>(props: {
  query: QueryState<{ data: Item[] }>;
  /** What the list holds, for the loading and error texts ("budgets"). */
  label: string;
  loadingLabel?: string;
  /** The table's accessible name ("Budgets"). */
  tableLabel: string;
  columns: readonly DataTableColumn[];
  /** Whether rows end with a cell of buttons. */
  actions?: boolean;
  empty: ReactNode;
  children: (item: Item) => ReactNode;
}) {
  return (
    <ResourceList query={props.query} label={props.label} loadingLabel={props.loadingLabel} empty={props.empty}>
      {(items) => (
        <DataTable label={props.tableLabel} columns={props.columns} actions={props.actions ?? false}>
          {items.map(props.children)}
        </DataTable>
      )}
    </ResourceList>
  );
}
