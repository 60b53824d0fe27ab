/**
 * The Activity screen's filters. They live in the page's address (`/activity?model=...&status=5xx`)
 * under the names of `GET /api/activity`'s query, so a link from another screen, the list, the
 * sessions and the export all read the same filters, and a filtered view can be shared.
 */

/** Filters that hold one value. */
export const singleActivityFilters = [
  "from",
  "to",
  "project_id",
  "team_id",
  "api_key_id",
  "requested_model",
  "model",
  "connection_id",
  "endpoint",
  "status",
  "error_code",
  "client_label",
  "client_version",
  "session_id",
  "min_latency_ms",
  "min_cost_micros",
  "max_cost_micros",
  "guardrail_flagged",
  "budget_outcome",
  "rate_limit_outcome",
  "request_id",
] as const;

/** A filter that holds one value. */
export type SingleActivityFilter = (typeof singleActivityFilters)[number];

/** The filters of the Activity screen: single values, plus `metadata` entries `key:value` (all must match). */
export type ActivityFilters = Partial<Record<SingleActivityFilter, string>> & { metadata?: string[] };

/** Filter names the list answers to but the sessions do not group by (a session spans its calls). */
const callOnlyFilters: readonly SingleActivityFilter[] = ["request_id"];

/** At most this many metadata pairs (a call carries at most 16 keys). */
export const maxMetadataFilters = 16;

/** A metadata key as callers may send it (`X-Gateway-Metadata`). */
const metadataKey = /^[A-Za-z0-9_.-]{1,64}$/;

/** Whether a filter value can be sent as it is (numbers where numbers go, known words where words go). */
function isAcceptable(name: SingleActivityFilter, value: string): boolean {
  switch (name) {
    case "from":
    case "to":
      return !Number.isNaN(Date.parse(value));
    case "min_latency_ms":
    case "min_cost_micros":
    case "max_cost_micros":
      return /^\d+$/.test(value);
    case "status":
      return /^([2-5]xx|[1-5]\d\d)$/.test(value);
    case "guardrail_flagged":
      return value === "true";
    default:
      return value.trim() !== "";
  }
}

/**
 * Reads the filters from the page's query string; unknown names and unusable values (a `status`
 * that is no status) are left out, so a hand-edited address never makes the API answer 400.
 */
export function readActivityFilters(search: URLSearchParams): ActivityFilters {
  const filters: ActivityFilters = {};
  for (const name of singleActivityFilters) {
    const value = search.get(name);
    if (value !== null && isAcceptable(name, value)) filters[name] = value;
  }
  const metadata = search.getAll("metadata").map(parseMetadataFilter).filter((entry) => entry !== null);
  // A call carries at most 16 metadata keys: more pairs could never all match (and the API takes 16).
  if (metadata.length > 0) filters.metadata = [...new Set(metadata)].slice(0, maxMetadataFilters);
  return filters;
}

/**
 * Parses a metadata filter typed as `key=value` or `key:value` into the API's `key:value`; null
 * when the key is not one a caller could have sent.
 */
export function parseMetadataFilter(text: string): string | null {
  const separator = text.search(/[=:]/);
  if (separator <= 0) return null;
  const key = text.slice(0, separator).trim();
  const value = text.slice(separator + 1).trim();
  if (!metadataKey.test(key) || value === "" || value.length > 256) return null;
  return `${key}:${value}`;
}

/**
 * Metadata typed one `key=value` per line (blank lines skipped) as an object; the first line that
 * is not a pair a caller could send is the error.
 */
export function parseMetadataLines(text: string): { metadata: Record<string, string>; error?: string } {
  const metadata: Record<string, string> = {};
  for (const line of text.split("\n").map((entry) => entry.trim()).filter(Boolean)) {
    const pair = parseMetadataFilter(line);
    if (pair === null) return { metadata, error: `“${line}” is not key=value (letters, digits, _ . - in the key).` };
    const separator = pair.indexOf(":");
    metadata[pair.slice(0, separator)] = pair.slice(separator + 1);
  }
  return { metadata };
}

/** The filters as a query string (no leading `?`), in a fixed order so equal filters give equal strings. */
export function activitySearchString(filters: ActivityFilters): string {
  const search = new URLSearchParams();
  for (const name of singleActivityFilters) {
    const value = filters[name];
    if (value !== undefined) search.set(name, value);
  }
  for (const entry of filters.metadata ?? []) search.append("metadata", entry);
  return search.toString();
}

/** A link to the Activity screen showing the calls that match `filters`. */
export function activityLink(filters: ActivityFilters): string {
  const search = activitySearchString(filters);
  return search === "" ? "/activity" : `/activity?${search}`;
}

/** The filters with one removed (a metadata entry by its `key:value`). */
export function withoutActivityFilter(filters: ActivityFilters, name: SingleActivityFilter | "metadata", value?: string): ActivityFilters {
  const next: ActivityFilters = { ...filters };
  if (name === "metadata") {
    const metadata = (filters.metadata ?? []).filter((entry) => entry !== value);
    if (metadata.length > 0) next.metadata = metadata;
    else delete next.metadata;
  } else {
    delete next[name];
  }
  return next;
}

/** The query for `GET /api/activity` and the export: the filters as the API names them. */
export function activityListQuery(filters: ActivityFilters): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of singleActivityFilters) {
    const value = filters[name];
    if (value !== undefined) query[name] = value;
  }
  if (filters.metadata && filters.metadata.length > 0) query.metadata = filters.metadata;
  return query;
}

/** The query for `GET /api/activity/sessions`: the list's filters that apply to sessions. */
export function activitySessionsQuery(filters: ActivityFilters): Record<string, string | string[]> {
  const query = activityListQuery(filters);
  for (const name of callOnlyFilters) delete query[name];
  return query;
}

/** Whether any filter is set. */
export function hasActivityFilters(filters: ActivityFilters): boolean {
  return activitySearchString(filters) !== "";
}
