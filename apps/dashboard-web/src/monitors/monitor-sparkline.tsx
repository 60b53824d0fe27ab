import { useQuery } from "@tanstack/react-query";
import type { MonitorRule, MonitorSeries } from "../api/api-types.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { formatMinutes, formatMonitorValue } from "./monitor-metrics.js";
import { sparklineGeometry } from "./sparkline-geometry.js";

/** What a sparkline shows, in words (its accessible name): the range, the latest and highest value, the threshold. */
export function describeSeries(series: MonitorSeries): string {
  const measured = series.points.filter((point) => point.value !== null);
  const span = formatMinutes(series.step_minutes * Math.max(series.points.length - 1, 1));
  const threshold = formatMonitorValue(series.metric, series.threshold);
  if (measured.length === 0) return `No calls measured in the last ${span}; threshold ${threshold}`;
  const latest = measured.at(-1)!.value;
  const highest = Math.max(...measured.map((point) => point.value!));
  return `Last ${span}: latest ${formatMonitorValue(series.metric, latest)}, highest ${formatMonitorValue(series.metric, highest)}; threshold ${threshold}`;
}

/** A small inline chart of a series: the values as a line, the threshold dashed. */
export function Sparkline(props: { series: MonitorSeries; firing: boolean; width?: number; height?: number }) {
  const width = props.width ?? 120;
  const height = props.height ?? 32;
  const geometry = sparklineGeometry({ values: props.series.points.map((point) => point.value), threshold: props.series.threshold, width, height });
  const color = props.firing ? "var(--color-danger)" : "var(--color-primary)";
  return (
    <svg className="sparkline" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={describeSeries(props.series)} data-testid="monitor-sparkline">
      <line x1={0} x2={width} y1={geometry.thresholdY} y2={geometry.thresholdY} stroke="var(--color-warning)" strokeDasharray="3 3" strokeWidth={1} />
      {geometry.path ? <path d={geometry.path} fill="none" stroke={color} strokeWidth={1.5} strokeLinejoin="round" /> : null}
      {geometry.dots.map((dot) => (
        <circle key={`${dot.x}-${dot.y}`} cx={dot.x} cy={dot.y} r={2} fill={color} />
      ))}
    </svg>
  );
}

/** A rule's recent values (its series, read on its own), as a {@link Sparkline}. */
export function MonitorSparkline(props: { rule: MonitorRule; scopeValue?: string; width?: number; height?: number }) {
  const series = useQuery(dashboardQueries.monitorSeries(props.rule.id, props.scopeValue === undefined ? {} : { scope_value: props.scopeValue }));
  if (series.isPending) return <span className="small muted">…</span>;
  if (series.isError) return <span className="small muted">Chart unavailable</span>;
  return <Sparkline series={series.data} firing={props.rule.status === "firing"} width={props.width} height={props.height} />;
}
