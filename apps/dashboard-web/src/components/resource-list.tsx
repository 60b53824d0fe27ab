import type { ReactNode } from "react";
import { type QueryState, QueryView } from "./query-view.js";

/**
 * A list the API answers as `{ data: [...] }`, in each of its states: loading, failed (with
 * retry), `empty` when it holds nothing yet, else the items.
 */
export function ResourceList<Item>(props: {
  query: QueryState<{ data: Item[] }>;
  /** What the list holds, for the loading and error texts ("budgets"). */
  label: string;
  loadingLabel?: string;
  empty: ReactNode;
  children: (items: Item[]) => ReactNode;
}) {
  return (
    <QueryView query={props.query} label={props.label} loadingLabel={props.loadingLabel}>
      {(list) => (list.data.length === 0 ? props.empty : props.children(list.data))}
    </QueryView>
  );
}
