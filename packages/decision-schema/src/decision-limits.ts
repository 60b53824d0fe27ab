/**
 * The limits of the decision contract (`POST /v1/systemone`), from the spec's limits table.
 * Providers may impose smaller limits; these are the gateway's own.
 */
export const decisionLimits = Object.freeze({
  /** Fewest questions a request may carry. */
  minQuestions: 1,
  /** Most questions a request may carry. */
  maxQuestions: 200,
  /** Fewest choices of a choice question and fewest levels or rubric entries of a score question. */
  minCriteria: 2,
  /** Most choices of a choice question and most levels or rubric entries of a score question. */
  maxCriteria: 255,
  /** Shortest `model` string, in characters. */
  minModelLength: 1,
  /** Longest `model` string, in characters. */
  maxModelLength: 1_048_576,
  /** Request fields that cap output tokens; any of them present (even `null`) makes a decision request invalid. */
  outputCapFields: Object.freeze(["max_tokens", "max_output_tokens", "max_completion_tokens"] as const),
  /** Longest `X-Request-ID` header value, in characters. */
  maxRequestIdLength: 255,
  /** Longest `X-Gateway-Client` header value, in characters. */
  maxClientLabelLength: 97,
  /**
   * A valid `X-Gateway-Client` label: `application[/version]`; the name is 1 to 64 ASCII letters,
   * digits, spaces, dots, underscores or hyphens starting with a letter or digit; the version starts
   * with a digit and has up to 32 letters, digits, dots, underscores, plus signs or hyphens.
   */
  clientLabelPattern: /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}(?:\/[0-9][A-Za-z0-9._+-]{0,31})?$/,
  /** Shortest `X-Gateway-Session` / `X-Gateway-Session-ID` value, in characters. */
  minSessionIdLength: 1,
  /** Longest `X-Gateway-Session` / `X-Gateway-Session-ID` value, in characters. */
  maxSessionIdLength: 128,
  /** The characters allowed in `X-Gateway-Session` / `X-Gateway-Session-ID` (length checked separately). */
  sessionIdPattern: /^[A-Za-z0-9._:-]+$/,
});

/** The type of {@link decisionLimits}. */
export type DecisionLimits = typeof decisionLimits;
