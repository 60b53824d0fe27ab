import { Link } from "react-router";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { otherGroupKey, type PivotedUsage } from "./pivot-usage.js";

/** Eight distinguishable colours (Okabe–Ito based), then grey for "other". */
export const seriesColors = ["#2f5bea", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#7a5195", "#0072b2"];

/**
 * A stacked bar chart of one usage metric over time by group, with a data table for screen readers
 * and exact numbers. With `activityLink`, a bar opens the calls of its group and bucket, and each
 * row of the table links to its group's calls.
 */
export function UsageChart(props: {
  title: string;
  pivoted: PivotedUsage;
  labelOf: (key: string) => string;
  formatValue: (value: number) => string;
  formatBucket: (bucket: string) => string;
  /** The Activity address of a group's calls, in one bucket or (no bucket) the whole range. */
  activityLink?: (key: string, bucket?: string) => string;
  /** Opens an address (a clicked bar). */
  onNavigate?: (to: string) => void;
}) {
  const { pivoted } = props;
  const label = (key: string) => (key === otherGroupKey ? "Other" : props.labelOf(key));
  const summary = pivoted.keys.length === 0 ? "no data" : pivoted.keys.map((key) => `${label(key)} ${props.formatValue(pivoted.totals[key] ?? 0)}`).join(", ");
  return (
    <figure className="stack" style={{ margin: 0 }}>
      <figcaption>
        <h2>{props.title}</h2>
      </figcaption>
      {pivoted.keys.length === 0 ? <p className="muted">No calls in this range yet.</p> : null}
      <div className="chart-box" role="img" aria-label={`${props.title}: ${summary}`} data-testid="usage-chart">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={pivoted.rows} margin={{ top: 8, right: 8, bottom: 0, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="bucket" tickFormatter={props.formatBucket} minTickGap={24} fontSize={12} />
            <YAxis tickFormatter={(value: number) => props.formatValue(value)} width={72} fontSize={12} allowDecimals={false} />
            <Tooltip formatter={(value) => props.formatValue(Number(value))} labelFormatter={(value) => props.formatBucket(String(value))} />
            <Legend formatter={(value: string) => label(value)} />
            {pivoted.keys.map((key, index) => (
              <Bar
                key={key}
                dataKey={key}
                name={key}
                stackId="usage"
                fill={key === otherGroupKey ? "#9aa3af" : seriesColors[index % seriesColors.length]}
                isAnimationActive={false}
                {...(props.activityLink && props.onNavigate
                  ? {
                      cursor: "pointer",
                      onClick: (data: { payload?: { bucket?: string } }) => {
                        if (data.payload?.bucket) props.onNavigate!(props.activityLink!(key, data.payload.bucket));
                      },
                    }
                  : {})}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <details className="data-table">
        <summary>Show the numbers</summary>
        <div className="table-wrap" role="region" aria-label={`${props.title}: the numbers`} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col" className="numeric">Total</th>
                {props.activityLink ? (
                  <th scope="col">
                    <span className="visually-hidden">Calls</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {pivoted.keys.map((key) => (
                <tr key={key}>
                  <td>{label(key)}</td>
                  <td className="numeric">{props.formatValue(pivoted.totals[key] ?? 0)}</td>
                  {props.activityLink ? (
                    <td>
                      <Link to={props.activityLink(key)} aria-label={`Calls of ${label(key)}`}>
                        Calls
                      </Link>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
