import { formatFieldPath } from "./format-field-path.js";

/** One validation issue of a 400 answer (`details.issues`). */
interface ApiIssue {
  path: string | number | null;
  message: string;
}

/**
 * A failed dashboard API call: the dashboard error body `{error:{code,message,details}}` plus the
 * HTTP status and the `x-request-id` of the answer (shown to the user, so support can find the call).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  readonly requestId: string | null;

  constructor(options: { status: number; code: string; message: string; details?: Record<string, unknown>; requestId: string | null }) {
    super(options.message);
    this.name = "ApiError";
    this.status = options.status;
    this.code = options.code;
    this.details = options.details ?? {};
    this.requestId = options.requestId;
  }

  /** Builds the error from an answer and its parsed body (anything that is not the error body gets a generic message). */
  static fromResponse(response: Response, body: unknown): ApiError {
    const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
    const requestId = response.headers.get("x-request-id");
    if (error && typeof error.code === "string" && typeof error.message === "string") {
      const details = typeof error.details === "object" && error.details !== null ? (error.details as Record<string, unknown>) : {};
      return new ApiError({ status: response.status, code: error.code, message: error.message, details, requestId });
    }
    return new ApiError({ status: response.status, code: response.status >= 500 ? "internal_error" : "http_error", message: `The dashboard answered ${response.status}.`, requestId });
  }

  /** A network failure (no answer at all). */
  static network(cause: unknown): ApiError {
    const error = new ApiError({ status: 0, code: "network_error", message: "The dashboard could not be reached. Check your connection and try again.", requestId: null });
    (error as { cause?: unknown }).cause = cause;
    return error;
  }

  /** Field path -> message, from `details.issues` (validation) or `details.param` (one field). */
  fieldErrors(): Record<string, string> {
    const errors: Record<string, string> = {};
    const issues = this.details.issues;
    if (Array.isArray(issues)) {
      for (const issue of issues as ApiIssue[]) {
        const path = issue.path === null ? "" : typeof issue.path === "number" ? formatFieldPath([issue.path]) : issue.path;
        if (path !== "" && errors[path] === undefined) errors[path] = issue.message;
      }
    } else if (typeof this.details.param === "string") {
      errors[this.details.param] = this.message;
    }
    return errors;
  }
}

/** Whether a value is an {@link ApiError}. */
export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
