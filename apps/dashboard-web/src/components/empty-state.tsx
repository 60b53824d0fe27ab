import type { ReactNode } from "react";

/** What a list shows when it has nothing yet, in a card: what belongs here and, when allowed, how to add one. */
export function EmptyState(props: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="card">
      <div className="empty-state">
        <h2>{props.title}</h2>
        {props.children ? <p>{props.children}</p> : null}
        {props.action}
      </div>
    </div>
  );
}
