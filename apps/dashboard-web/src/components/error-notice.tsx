import { isApiError } from "../api/api-error.js";

/**
 * Shows a failed call: the API's message, its error code and the request id of the answer (so a
 * person can quote it), with a retry button when there is something to retry.
 */
export function ErrorNotice(props: { error: unknown; title?: string; onRetry?: () => void }) {
  const error = props.error;
  const message = error instanceof Error ? error.message : "Something went wrong.";
  return (
    <div className="notice error" role="alert">
      <strong className="notice-title">{props.title ?? "That did not work"}</strong>
      <span>{message}</span>
      {isApiError(error) ? (
        <span className="request-id">
          Code <code>{error.code}</code>
          {error.requestId ? (
            <>
              {" "}· request id <code data-testid="request-id">{error.requestId}</code>
            </>
          ) : null}
        </span>
      ) : null}
      {props.onRetry ? (
        <span>
          <button type="button" className="button small" onClick={props.onRetry}>
            Try again
          </button>
        </span>
      ) : null}
    </div>
  );
}
