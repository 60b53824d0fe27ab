import { estimateMaxCostMicros, resolveMaxOutputTokens, resolveModelPrice } from "@gateway/budget";
import type { CallerIdentity } from "./authenticate.js";
import type { CompiledSnapshot } from "../runtime/compile-snapshot.js";
import type { RoutePlan } from "./resolve-route.js";
import { servedModelOf } from "./settle-cost.js";

/** Characters per token of the cheap input estimate (OpenAI's rule of thumb for English text). */
export const charactersPerToken = 4;

/** What admission is told about a chat call before it is made. */
export interface ChatAdmissionEstimate {
  /** Upper bound of the cost in micro-USD (0 when the organization has no hard budget). */
  estimatedCostMicros: number;
  /** Input plus capped output tokens (0 when the organization has no token rate limit). */
  estimatedTokens: number;
}

/**
 * Estimates a chat call for admission, cheaply: nothing at all is computed unless the caller's
 * organization has a hard budget or a token rate limit. Input tokens are the body's characters
 * / 4 (the declared body size when known, else the serialised body); output is capped by
 * `max_completion_tokens` / `max_tokens`, else the model's `maxOutputTokens` or context window,
 * else the budget package's fallback. The cost is the highest over the plan's targets (any of
 * them may end up serving the call).
 */
export function estimateChatAdmission(input: {
  snapshot: CompiledSnapshot;
  identity: CallerIdentity;
  plan: RoutePlan;
  body: Record<string, unknown>;
  /** The request body's size in bytes, when the HTTP layer knows it. */
  bodyBytes?: number;
  /** The output cap when the body's fields are not chat's (Responses `max_output_tokens`; 0 for embeddings). */
  maxOutputTokens?: number | null;
  /** Which chat format's cap fields to read when `maxOutputTokens` is not given (default `openai`). */
  format?: "openai" | "anthropic";
}): ChatAdmissionEstimate {
  const organizationId = input.identity.organization.id;
  const budgets = input.snapshot.budgetsByOrganization.get(organizationId);
  const limits = input.snapshot.rateLimitsByOrganization.get(organizationId);
  const hasHardBudget = budgets !== undefined && budgets.some((budget) => budget.mode === "hard");
  const hasTokenLimit = limits !== undefined && limits.some((limit) => limit.tokensPerWindow !== null);
  if (!hasHardBudget && !hasTokenLimit) return { estimatedCostMicros: 0, estimatedTokens: 0 };

  const characters =
    input.bodyBytes !== undefined && Number.isFinite(input.bodyBytes) && input.bodyBytes >= 0
      ? input.bodyBytes
      : JSON.stringify(input.body).length;
  const inputTokens = Math.ceil(characters / charactersPerToken);
  const maxOutputTokens = input.maxOutputTokens === undefined ? requestedOutputCap(input.body, input.format) : input.maxOutputTokens;
  let estimatedCostMicros = 0;
  let outputTokens = 0;
  for (const target of input.plan.targets) {
    const connectionPrices = (target.connection as { prices?: Parameters<typeof resolveModelPrice>[0]["connectionPrices"] }).prices;
    const price = resolveModelPrice({ model: servedModelOf(target), connectionPrices: connectionPrices ?? null });
    outputTokens = Math.max(outputTokens, resolveMaxOutputTokens({ inputTokens, maxOutputTokens, price }));
    if (hasHardBudget && price !== null) {
      estimatedCostMicros = Math.max(estimatedCostMicros, estimateMaxCostMicros({ inputTokens, maxOutputTokens, price }));
    }
  }
  return { estimatedCostMicros, estimatedTokens: hasTokenLimit ? inputTokens + outputTokens : 0 };
}

/** The output-cap fields of each chat format, in order of precedence. */
const outputCapFields = {
  openai: ["max_completion_tokens", "max_tokens"],
  anthropic: ["max_tokens"],
} as const;

/**
 * The caller's output cap: OpenAI's `max_completion_tokens`, else `max_tokens`; Anthropic's
 * `max_tokens` (an unknown `max_completion_tokens` in a messages body caps nothing). Positive
 * integers only.
 */
export function requestedOutputCap(body: Record<string, unknown>, format: "openai" | "anthropic" = "openai"): number | null {
  for (const key of outputCapFields[format]) {
    const value = Object.hasOwn(body, key) ? body[key] : undefined;
    if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  }
  return null;
}
