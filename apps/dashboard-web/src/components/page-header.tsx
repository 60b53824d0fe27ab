import type { ReactNode } from "react";
import { useDocumentTitle } from "../layout/use-document-title.js";

/** The title block of a screen, with its primary actions on the right; the title names the browser tab too. */
export function PageHeader(props: { title: string; description?: ReactNode; actions?: ReactNode; /** The tab's name when the title is not a screen's name (a greeting). */ documentTitle?: string }) {
  useDocumentTitle(props.documentTitle ?? props.title);
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
