/** A placeholder while data loads (announced to screen readers). */
export function LoadingState(props: { label?: string; rows?: number }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="visually-hidden">{props.label ?? "Loading…"}</span>
      {Array.from({ length: props.rows ?? 3 }, (_, index) => (
        <div key={index} className="skeleton" style={{ width: `${90 - index * 12}%` }} />
      ))}
    </div>
  );
}
