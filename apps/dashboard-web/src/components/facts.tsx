import type { ReactNode } from "react";

/** A list of facts: term and description pairs, the description "–" when there is nothing. */
export function Facts(props: { items: [string, ReactNode][]; label?: string }) {
  return (
    <dl className="facts" aria-label={props.label}>
      {props.items.map(([term, description]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{description ?? "–"}</dd>
        </div>
      ))}
    </dl>
  );
}
