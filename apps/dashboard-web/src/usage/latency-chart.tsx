import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsageSeriesPoint } from "../api/api-types.js";
import { formatDuration, formatPercent } from "../format/format-number.js";

/** Latency (median, 95th percentile) and error rate over time, from the ungrouped series. */
export function LatencyChart(props: { points: readonly UsageSeriesPoint[]; buckets: readonly string[]; formatBucket: (bucket: string) => string }) {
  const byBucket = new Map(props.points.map((point) => [new Date(point.bucket_start).toISOString(), point]));
  const rows = props.buckets.map((bucket) => {
    const point = byBucket.get(bucket);
    return {
      bucket,
      p50: point?.latency_ms_p50 ?? null,
      p95: point?.latency_ms_p95 ?? null,
      errorRate: point && point.request_count > 0 ? point.error_count / point.request_count : null,
    };
  });
  // A line needs two points: a series with a single value (one busy hour) is drawn as a dot instead.
  const dotFor = (key: "p50" | "p95" | "errorRate", color: string) => (rows.filter((row) => row[key] !== null).length === 1 ? { r: 4, fill: color, strokeWidth: 0 } : false);
  const calls = props.points.reduce((sum, point) => sum + point.request_count, 0);
  const errors = props.points.reduce((sum, point) => sum + point.error_count, 0);
  const slowest = props.points.reduce((max, point) => Math.max(max, point.latency_ms_p95 ?? 0), 0);
  return (
    <figure className="stack" style={{ margin: 0 }}>
      <figcaption>
        <h2>Latency and errors</h2>
        <p className="small muted">
          {calls === 0 ? "No calls in this range." : `${formatPercent(errors / calls)} of ${calls.toLocaleString("en-US")} calls failed; the slowest hour's 95th percentile was ${formatDuration(slowest)}.`} Percentiles are estimated from a latency histogram.
        </p>
      </figcaption>
      <div className="chart-box" role="img" aria-label={`Latency and error rate: ${calls} ${calls === 1 ? "call" : "calls"}, ${errors} ${errors === 1 ? "error" : "errors"}`} data-testid="latency-chart">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="bucket" tickFormatter={props.formatBucket} minTickGap={24} fontSize={12} />
            <YAxis yAxisId="latency" tickFormatter={(value: number) => formatDuration(value)} width={72} fontSize={12} />
            <YAxis yAxisId="errors" orientation="right" tickFormatter={(value: number) => formatPercent(value)} width={56} fontSize={12} domain={[0, 1]} />
            <Tooltip
              formatter={(value, name) => (name === "Error rate" ? formatPercent(Number(value)) : formatDuration(Number(value)))}
              labelFormatter={(value) => props.formatBucket(String(value))}
            />
            <Legend />
            <Line yAxisId="latency" type="linear" dataKey="p50" name="Median latency" stroke="#2f5bea" dot={dotFor("p50", "#2f5bea")} connectNulls isAnimationActive={false} />
            <Line yAxisId="latency" type="linear" dataKey="p95" name="95th percentile" stroke="#e69f00" dot={dotFor("p95", "#e69f00")} connectNulls isAnimationActive={false} />
            <Line yAxisId="errors" type="linear" dataKey="errorRate" name="Error rate" stroke="#c62f3b" dot={dotFor("errorRate", "#c62f3b")} connectNulls isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
