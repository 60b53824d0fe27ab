import { queryOptions } from "@tanstack/react-query";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import type { paths } from "../generated/dashboard-api.js";
import { type ActivityFilters, activityListQuery, activitySearchString, activitySessionsQuery } from "./activity-filters.js";

type Query<Path extends keyof paths> = paths[Path] extends { get: { parameters: { query?: infer Parameters } } } ? NonNullable<Parameters> : never;

/** Calls per page: enough to fill a tall window, so scrolling reads the next page before it shows. */
const pageSize = 50;

/** The session a session view shows: its id within one project and key (sessions are isolated by both). */
export interface ActivitySessionKey {
  sessionId: string;
  projectId: string | null;
  apiKeyId: string | null;
}

/** One page of `GET /api/activity`, newest first. */
export function fetchActivityPage(filters: ActivityFilters, cursor: string | undefined) {
  const query = { ...activityListQuery(filters), limit: pageSize, ...(cursor ? { cursor } : {}) } as Query<"/api/activity">;
  return callApi(dashboardClient.GET("/api/activity", { params: { query } }));
}

/** One page of `GET /api/activity/sessions`, the latest active first. */
export function fetchActivitySessionsPage(filters: ActivityFilters, cursor: string | undefined) {
  const query = { ...activitySessionsQuery(filters), limit: pageSize, ...(cursor ? { cursor } : {}) } as Query<"/api/activity/sessions">;
  return callApi(dashboardClient.GET("/api/activity/sessions", { params: { query } }));
}

/** One session's calls, oldest first. */
export function fetchActivitySessionCalls(session: ActivitySessionKey) {
  const query = { ...(session.projectId ? { project_id: session.projectId } : {}), ...(session.apiKeyId ? { api_key_id: session.apiKeyId } : {}) } as Query<"/api/activity/sessions/{session_id}">;
  return callApi(dashboardClient.GET("/api/activity/sessions/{session_id}", { params: { path: { session_id: session.sessionId }, query } }));
}

/** All that is recorded of one call (no content). */
export function activityCallQuery(requestId: string) {
  return queryOptions({
    queryKey: ["activity", "call", requestId],
    queryFn: () => callApi(dashboardClient.GET("/api/activity/{request_id}", { params: { path: { request_id: requestId } } })),
  });
}

/** A call's captured request and response (read on demand: each read is written to the audit log). */
export function activityContentQuery(requestId: string) {
  return queryOptions({
    queryKey: ["activity", "content", requestId],
    queryFn: () => callApi(dashboardClient.GET("/api/activity/{request_id}/content", { params: { path: { request_id: requestId } } })),
    // Read once per opening: no refetch on focus, so the audit log holds the reads a person asked for.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });
}

/** The address of the export of the calls that match `filters` (a download: the session cookie goes along). */
export function activityExportUrl(filters: ActivityFilters, format: "csv" | "ndjson"): string {
  const search = activitySearchString(filters);
  return `/api/activity/export?format=${format}${search === "" ? "" : `&${search}`}`;
}
