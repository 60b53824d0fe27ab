/** One headline figure with its label (totals above charts and lists). */
export function Stat(props: { label: string; value: string }) {
  return (
    <div className="stat">
      <span className="stat-label">{props.label}</span>
      <span className="stat-value">{props.value}</span>
    </div>
  );
}
