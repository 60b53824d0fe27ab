import type { ReactNode } from "react";
import { ErrorNotice } from "./error-notice.js";
import { LoadingState } from "./loading-state.js";

/** What {@link QueryView} reads of a query (a TanStack `useQuery` result, or {@link useCursorPages}). */
export interface QueryState<Data> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: Data | undefined;
  refetch: () => unknown;
}

/** Renders a query: a loading placeholder, its error (with request id and retry), or its data. */
export function QueryView<Data>(props: { query: QueryState<Data>; children: (data: Data) => ReactNode; label?: string; loadingLabel?: string }) {
  if (props.query.isPending) return <LoadingState label={props.loadingLabel ?? props.label} />;
  if (props.query.isError) return <ErrorNotice error={props.query.error} title={`Could not load ${props.label ?? "this"}`} onRetry={() => void props.query.refetch()} />;
  return <>{props.children(props.query.data as Data)}</>;
}
