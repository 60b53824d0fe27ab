import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ErrorNotice } from "./error-notice.js";
import { LoadingState } from "./loading-state.js";

/** Renders a query: a loading placeholder, its error (with request id and retry), or its data. */
export function QueryView<Data>(props: { query: UseQueryResult<Data>; children: (data: Data) => ReactNode; label?: string }) {
  if (props.query.isPending) return <LoadingState label={props.label} />;
  if (props.query.isError) return <ErrorNotice error={props.query.error} title={`Could not load ${props.label ?? "this"}`} onRetry={() => void props.query.refetch()} />;
  return <>{props.children(props.query.data)}</>;
}
