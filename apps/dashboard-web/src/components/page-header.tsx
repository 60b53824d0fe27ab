import type { ReactNode } from "react";

/** The title block of a screen, with its primary actions on the right. */
export function PageHeader(props: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="page-header">
      <div>
        <h1>{props.title}</h1>
        {props.description ? <p>{props.description}</p> : null}
      </div>
      {props.actions ? <div className="actions">{props.actions}</div> : null}
    </div>
  );
}
