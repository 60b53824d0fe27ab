import { ErrorNotice } from "./error-notice.js";
import { StatusBadge } from "./status-badge.js";

/** The answer of a test delivery (`POST …/{id}/test`). */
export interface DeliveryTestOutcome {
  reference: string;
  delivered: boolean;
}

/** Shows whether a test event arrived, with its reference (trace id or event id) to look it up at the far end. */
export function DeliveryTestResult(props: { outcome: DeliveryTestOutcome | undefined; error?: unknown }) {
  if (props.error) return <ErrorNotice error={props.error} title="Test failed" />;
  if (!props.outcome) return null;
  return (
    <div className="small" role="status">
      <StatusBadge tone={props.outcome.delivered ? "success" : "danger"}>{props.outcome.delivered ? "test delivered" : "test not delivered"}</StatusBadge>{" "}
      <span className="muted">
        reference <code>{props.outcome.reference}</code>
      </span>
    </div>
  );
}
