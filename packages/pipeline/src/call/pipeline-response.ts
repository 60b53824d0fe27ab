/** A finished JSON answer of the pipeline; the app writes it as is. */
export interface PipelineJsonResponse {
  status: number;
  /** Lower-case header names; always includes `x-request-id`. */
  headers: Record<string, string>;
  body: unknown;
  /**
   * `body` already serialised (the provider's bytes of a native answer that passed through
   * unchanged): send it as is instead of `JSON.stringify(body)`.
   */
  bodyText?: string;
}
