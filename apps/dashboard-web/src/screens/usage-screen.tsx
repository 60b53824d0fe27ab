import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Link, useNavigate } from "react-router";
import { activityLink } from "../activity/activity-filters.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ErrorNotice } from "../components/error-notice.js";
import { SelectField } from "../components/fields.js";
import { LoadingState } from "../components/loading-state.js";
import { DataTable } from "../components/data-table.js";
import { PageHeader } from "../components/page-header.js";
import { Stat } from "../components/stat.js";
import { StatusBadge } from "../components/status-badge.js";
import { useNames } from "../components/use-names.js";
import { formatDateTime, formatShortDateTime } from "../format/format-date-time.js";
import { formatMicros } from "../format/format-micros.js";
import { formatDuration, formatNumber, formatPercent } from "../format/format-number.js";
import { LatencyChart } from "../usage/latency-chart.js";
import { listBuckets, pivotUsage, type UsageMetric, type UsagePoint } from "../usage/pivot-usage.js";
import { UsageChart } from "../usage/usage-chart.js";
import { usageActivityFilters } from "../usage/usage-activity-filters.js";
import { useSession } from "../session/session-context.js";

type RangeName = "24h" | "7d" | "30d" | "90d";
type GroupBy = "model" | "api_key" | "project" | "client_label" | "none";

const ranges: Record<RangeName, { label: string; interval: "hour" | "day"; days: number }> = {
  "24h": { label: "Last 24 hours", interval: "hour", days: 1 },
  "7d": { label: "Last 7 days", interval: "hour", days: 7 },
  "30d": { label: "Last 30 days", interval: "day", days: 30 },
  "90d": { label: "Last 90 days", interval: "day", days: 90 },
};
const groupLabels: Record<GroupBy, string> = { model: "Model", api_key: "API key", project: "Project", client_label: "Client label", none: "Nothing (all calls)" };
const groupNouns: Record<GroupBy, string> = { model: "model", api_key: "API key", project: "project", client_label: "client label", none: "nothing" };
const metricLabels: Record<UsageMetric, string> = { costMicros: "Spend", tokens: "Tokens", requests: "Requests" };

/** The range's bounds: `to` is the end of the current hour or day, so the latest calls are in. */
function rangeBounds(range: RangeName, now: number): { from: Date; to: Date } {
  const { interval, days } = ranges[range];
  const step = interval === "hour" ? 3_600_000 : 86_400_000;
  const to = Math.floor(now / step) * step + step;
  return { from: new Date(to - days * 86_400_000), to: new Date(to) };
}

/**
 * Usage over time: spend, tokens or requests by model, API key, project or client label (daily
 * views of models, keys and projects come from the usage rollups; hourly views and client
 * labels from the usage events), latency and error rate, and the latest calls with their request ids.
 */
export function UsageScreen() {
  const names = useNames();
  const { can } = useSession();
  const navigate = useNavigate();
  const [range, setRange] = useState<RangeName>("24h");
  const [groupBy, setGroupBy] = useState<GroupBy>("api_key");
  const [metric, setMetric] = useState<UsageMetric>("requests");
  const [projectId, setProjectId] = useState("");
  const [now, setNow] = useState(() => Date.now());
  const { interval } = ranges[range];
  const { from, to } = useMemo(() => rangeBounds(range, now), [range, now]);
  const buckets = useMemo(() => listBuckets(from, to, interval), [from, to, interval]);
  const fromRollups = interval === "day" && groupBy !== "client_label" && groupBy !== "none";
  const filter = projectId ? { project_id: projectId } : {};
  const daily = useQuery({
    ...dashboardQueries.usageDaily({ group_by: groupBy as "model" | "api_key" | "project", from: from.toISOString().slice(0, 10), to: new Date(to.getTime() - 1).toISOString().slice(0, 10), ...filter }),
    enabled: fromRollups,
  });
  const grouped = useQuery({ ...dashboardQueries.usageSeries({ interval, group_by: groupBy, from: from.toISOString(), to: to.toISOString(), ...filter }), enabled: !fromRollups });
  const overall = useQuery(dashboardQueries.usageSeries({ interval, group_by: "none", from: from.toISOString(), to: to.toISOString(), ...filter }));
  const events = useQuery(dashboardQueries.usageEvents({ limit: 10, from: from.toISOString(), to: to.toISOString(), ...filter }));
  const source = fromRollups ? daily : grouped;
  const points: UsagePoint[] = fromRollups
    ? (daily.data?.data ?? []).map((total) => ({
        bucket: `${total.day}T00:00:00.000Z`,
        key: total.key,
        requests: total.request_count,
        errors: total.error_count,
        tokens: total.input_tokens + total.output_tokens + total.cache_read_tokens + total.cache_write_tokens,
        costMicros: total.cost_micros,
      }))
    : (grouped.data?.data ?? []).map((point) => ({
        bucket: point.bucket_start,
        key: point.key,
        requests: point.request_count,
        errors: point.error_count,
        tokens: point.input_tokens + point.output_tokens + point.cache_read_tokens + point.cache_write_tokens,
        costMicros: point.cost_micros,
      }));
  const pivoted = pivotUsage(points, { metric, buckets });
  const totals = (overall.data?.data ?? []).reduce(
    (sum, point) => ({
      requests: sum.requests + point.request_count,
      errors: sum.errors + point.error_count,
      cost: sum.cost + point.cost_micros,
      tokens: sum.tokens + point.input_tokens + point.output_tokens + point.cache_read_tokens + point.cache_write_tokens,
      latency: sum.latency + (point.latency_ms_mean ?? 0) * point.request_count,
    }),
    { requests: 0, errors: 0, cost: 0, tokens: 0, latency: 0 },
  );
  const labelOf = (key: string) => {
    if (groupBy === "none") return "All calls";
    if (key === "") return groupBy === "client_label" ? "(no label)" : "(unknown)";
    if (groupBy === "api_key") return names.key(key);
    if (groupBy === "project") return names.project(key);
    return key;
  };
  // A group's calls in one bucket (a clicked bar) or the whole range, on the Activity screen.
  const callsOf = (key: string, bucket?: string) => {
    const start = bucket ? new Date(bucket) : from;
    const end = bucket ? new Date(start.getTime() + (interval === "hour" ? 3_600_000 : 86_400_000)) : to;
    return activityLink(usageActivityFilters({ groupBy, key, from: start, to: end, ...(projectId ? { projectId } : {}) }));
  };
  const canOpenActivity = can("get /api/activity");
  const formatValue = (value: number) => (metric === "costMicros" ? formatMicros(value) : formatNumber(value));
  const formatBucket = (bucket: string) =>
    new Date(bucket).toLocaleString("en-US", interval === "hour" ? { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false } : { month: "short", day: "numeric" });
  return (
    <>
      <PageHeader
        title="Usage"
        description="Calls through the gateway and the playground, as recorded by the gateways (written about every second)."
        actions={
          <button type="button" className="button" onClick={() => setNow(Date.now())}>
            Refresh
          </button>
        }
      />
      <div className="filters" role="group" aria-label="Chart settings">
        <SelectField label="Range" value={range} onChange={(value) => setRange(value as RangeName)} options={Object.entries(ranges).map(([value, entry]) => ({ value, label: entry.label }))} />
        <SelectField label="Show" value={metric} onChange={(value) => setMetric(value as UsageMetric)} options={Object.entries(metricLabels).map(([value, label]) => ({ value, label }))} />
        <SelectField label="By" value={groupBy} onChange={(value) => setGroupBy(value as GroupBy)} options={Object.entries(groupLabels).map(([value, label]) => ({ value, label }))} />
        <SelectField label="Project" value={projectId} onChange={setProjectId} placeholder="All projects" options={names.projects.map((project) => ({ value: project.id, label: project.name }))} />
      </div>
      <section className="card" aria-label="Totals">
        {overall.isPending ? (
          <LoadingState />
        ) : overall.isError ? (
          <ErrorNotice error={overall.error} onRetry={() => void overall.refetch()} />
        ) : (
          <div className="grid" data-testid="usage-totals">
            <Stat label="Requests" value={formatNumber(totals.requests)} />
            <Stat label="Errors" value={totals.requests > 0 ? `${formatNumber(totals.errors)} (${formatPercent(totals.errors / totals.requests)})` : "0"} />
            <Stat label="Spend" value={formatMicros(totals.cost)} />
            <Stat label="Tokens" value={formatNumber(totals.tokens)} />
            <Stat label="Mean latency" value={totals.requests > 0 ? formatDuration(totals.latency / totals.requests) : "–"} />
          </div>
        )}
      </section>
      <section className="card">
        {source.isPending ? (
          <LoadingState label="Loading the chart…" rows={6} />
        ) : source.isError ? (
          <ErrorNotice error={source.error} title="Could not load usage" onRetry={() => void source.refetch()} />
        ) : (
          <>
            <UsageChart title={groupBy === "none" ? `${metricLabels[metric]} per ${interval}` : `${metricLabels[metric]} per ${interval} by ${groupNouns[groupBy]}`} pivoted={pivoted} labelOf={labelOf} formatValue={formatValue} formatBucket={formatBucket} {...(canOpenActivity ? { activityLink: callsOf, onNavigate: (to: string) => void navigate(to) } : {})} />
            <p className="chart-legend-note">{fromRollups ? "From the daily usage rollups." : "From the usage events."}</p>
          </>
        )}
      </section>
      <section className="card">{overall.data ? <LatencyChart points={overall.data.data} buckets={buckets} formatBucket={formatBucket} /> : <LoadingState />}</section>
      <section className="stack" aria-labelledby="latest-calls">
        <div className="card-header">
          <h2 id="latest-calls">Latest calls</h2>
          {canOpenActivity ? <Link to={activityLink({ from: from.toISOString(), to: to.toISOString(), ...(projectId ? { project_id: projectId } : {}) })}>All calls of this range in Activity</Link> : null}
        </div>
        {events.isPending ? (
          <LoadingState />
        ) : events.isError ? (
          <ErrorNotice error={events.error} onRetry={() => void events.refetch()} />
        ) : events.data.data.length === 0 ? (
          <p className="muted">No calls in this range yet.</p>
        ) : (
          <DataTable
            label="Latest calls"
            columns={["Time", "Endpoint", "Model", "API key", "Status", { label: "Tokens", numeric: true }, { label: "Cost", numeric: true }, { label: "Latency", numeric: true }, "Request id"]}
          >
            {events.data.data.map((event) => (
              <tr key={event.id}>
                <td className="small nowrap" title={formatDateTime(event.occurred_at)}>{formatShortDateTime(event.occurred_at)}</td>
                <td className="small">{event.endpoint}</td>
                <td className="mono small nowrap">{event.provider && event.model ? `${event.provider}/${event.model}` : (event.requested_model ?? "–")}</td>
                <td>{names.key(event.api_key_id)}</td>
                <td>
                  <StatusBadge tone={event.status < 400 ? "success" : "danger"}>{event.status}</StatusBadge>
                  {event.error_code ? <div className="small muted">{event.error_code}</div> : null}
                </td>
                <td className="numeric">{formatNumber(event.input_tokens + event.output_tokens)}</td>
                <td className="numeric">{formatMicros(event.cost_micros)}</td>
                <td className="numeric">{formatDuration(event.latency_ms)}</td>
                <td className="mono small nowrap">{canOpenActivity ? <Link to={`/activity?call=${encodeURIComponent(event.request_id)}`}>{event.request_id}</Link> : event.request_id}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
    </>
  );
}
