import { GatewayError } from "@gateway/errors";

/**
 * Azure's refusal of a filtered prompt (400 with `error.code: "content_filter"` and, per
 * category, `error.innererror.content_filter_result`) as the error every caller format renders
 * as a bad request: 400 `invalid_request` on `param: "prompt"`, the filtered categories named
 * (no prompt text), not retried on another target (the deployment's content policy refused it).
 * Null for any other answer.
 */
export function mapAzureContentFilterError(status: number, body: unknown, provider: string): GatewayError | null {
  if (status !== 400 || typeof body !== "object" || body === null) return null;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== "object" || error === null || (error as { code?: unknown }).code !== "content_filter") return null;
  const inner = (error as { innererror?: unknown }).innererror;
  const results = typeof inner === "object" && inner !== null ? ((inner as Record<string, unknown>).content_filter_result ?? (inner as Record<string, unknown>).content_filter_results) : undefined;
  const categories =
    typeof results === "object" && results !== null
      ? Object.entries(results as Record<string, unknown>)
          .filter(([, result]) => typeof result === "object" && result !== null && (result as { filtered?: unknown }).filtered === true)
          .map(([category]) => category)
      : [];
  return new GatewayError("invalid_request", {
    message: `The prompt was filtered by the Azure OpenAI content filter of the connection '${provider}'${categories.length > 0 ? ` (${categories.join(", ")})` : ""}.`,
    param: "prompt",
    retryable: false,
    details: { provider, upstreamStatus: status, upstreamCode: "content_filter", filteredCategories: categories },
  });
}
