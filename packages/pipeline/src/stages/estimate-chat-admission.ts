import { boundCallCostMicros, defaultPriceTable, imageTokenBound, resolveMaxOutputTokens, resolveModelPrice } from "@gateway/budget";
import type { ModelPrice } from "@gateway/contracts";
import { GatewayError } from "@gateway/errors";
import { anthropicDefaultMaxTokens } from "@gateway/provider-adapters";
import { callerScopeOf } from "./admit-call.js";
import type { CallerIdentity } from "./authenticate.js";
import type { CompiledSnapshot } from "../runtime/compile-snapshot.js";
import type { RoutePlan } from "./resolve-route.js";
import { type RequestContents, scanRequestContents } from "./scan-request-contents.js";
import { providerDefaultPrice, servedModelOf } from "./settle-cost.js";

/** Characters per token of the cheap token estimates (OpenAI's rule of thumb for English text). */
export const charactersPerToken = 4;

/** What admission is told about a call before it is made. */
export interface ChatAdmissionEstimate {
  /** Upper bound of the cost in micro-USD (0 when no hard budget applies to the caller). */
  estimatedCostMicros: number;
  /** Input plus capped output tokens (0 when no token rate limit applies to the caller). */
  estimatedTokens: number;
}

/**
 * Estimates a call for admission (chat completions, messages, Responses, embeddings). Nothing at
 * all is computed unless a hard budget or a token rate limit applies to the caller (the only
 * ones that read the estimate); then
 * one walk over the body ({@link scanRequestContents}) finds what the provider bills.
 *
 * The cost, reserved on hard budgets, is an upper bound, the highest over the plan's targets (any
 * of them may serve the call): input at one token per UTF-8 byte of text, plus each image by its
 * target's rule (`imageTokenBound`), audio by its size, the providers' tool prompts; a file part
 * bounds the input by the model's context window only; output at the request's cap (else the
 * model's maximum output, else its context window) times `n`. When a target's price is known but
 * the bound is not (no output bound anywhere, a file part and no context window, a tool the
 * provider runs itself), a hard budget applying to the caller refuses the call with 424
 * `hard_budget_unbounded_request`.
 *
 * The tokens, counted by token rate limits until settlement corrects them, are an estimate: text
 * at characters / 4, media as above, output at the cap (else the model's maximum or the fallback)
 * times `n`.
 */
export function estimateChatAdmission(input: {
  snapshot: CompiledSnapshot;
  identity: CallerIdentity;
  plan: RoutePlan;
  body: Record<string, unknown>;
  /** The output cap when the body's fields are not chat's (Responses `max_output_tokens`; 0 for embeddings). */
  maxOutputTokens?: number | null;
  /** Which chat format's cap fields to read when `maxOutputTokens` is not given (default `openai`). */
  format?: "openai" | "anthropic";
}): ChatAdmissionEstimate {
  const identity = input.identity;
  const caller = callerScopeOf(identity);
  const hasHardBudget = input.snapshot.budgetIndex.hasHardBudget(caller);
  const hasTokenLimit = input.snapshot.budgetIndex.hasTokenLimit(caller);
  if (!hasHardBudget && !hasTokenLimit) return { estimatedCostMicros: 0, estimatedTokens: 0 };

  const contents = scanRequestContents(input.body);
  const requestCap = input.maxOutputTokens === undefined ? requestedOutputCap(input.body, input.format) : input.maxOutputTokens;
  const choices = input.maxOutputTokens === undefined && input.format !== "anthropic" ? requestedChoices(input.body) : 1;
  let estimatedCostMicros = 0;
  let estimatedTokens = 0;
  let unbounded: string | null = null;
  for (const target of input.plan.targets) {
    const connection = target.connection as TargetConnection;
    const model = servedModelOf(target);
    const price = withModelLimits(resolveModelPrice({ model, connectionPrices: connection.prices ?? null }) ?? providerDefaultPrice(connection.kind, model), model);
    const mediaTokens = mediaTokensOf(contents, model, connection.kind ?? "openai");
    const maxOutputTokens = requestCap ?? adapterDefaultCap(connection);
    if (hasTokenLimit) {
      const inputTokens = Math.ceil(contents.textTokens / charactersPerToken) + mediaTokens;
      const outputTokens = resolveMaxOutputTokens({ inputTokens, maxOutputTokens, price });
      estimatedTokens = Math.max(estimatedTokens, inputTokens + outputTokens * choices + contents.predictionTokens);
    }
    if (!hasHardBudget || price === null) continue;
    let inputTokens = contents.textTokens + mediaTokens;
    if (contents.unboundedInput !== null) {
      if (price.contextWindow === undefined) {
        unbounded ??= `${contents.unboundedInput} can cost up to the model's context window, and '${model}' has none in the price table`;
        continue;
      }
      inputTokens = Math.max(inputTokens, price.contextWindow);
    }
    if (contents.unboundedCall !== null) {
      unbounded ??= contents.unboundedCall;
      continue;
    }
    const cost = boundCallCostMicros({ inputTokens, maxOutputTokens, choices, extraOutputTokens: contents.predictionTokens, price });
    if (cost === null) {
      unbounded ??= `no output cap in the request, and no maximum output for '${model}' in the price table`;
      continue;
    }
    estimatedCostMicros = Math.max(estimatedCostMicros, cost);
  }
  if (unbounded !== null) refuseUnderHardBudget(input.snapshot, identity, unbounded);
  return { estimatedCostMicros, estimatedTokens };
}

/**
 * A connection's own price for a model the built-in table lists keeps the model's limits
 * (`maxOutputTokens`, `contextWindow`) from the table when it gives none: they are the model's,
 * not the price's, and without them a call without an output cap would have no bound.
 */
function withModelLimits(price: ModelPrice | null, model: string): ModelPrice | null {
  if (price === null || (price.maxOutputTokens !== undefined && price.contextWindow !== undefined)) return price;
  const listed = Object.hasOwn(defaultPriceTable, model) ? defaultPriceTable[model] : undefined;
  if (listed === undefined) return price;
  // Every entry of the table has both limits; a missing one stays undefined (no bound from it).
  return { ...price, maxOutputTokens: price.maxOutputTokens ?? listed.maxOutputTokens!, contextWindow: price.contextWindow ?? listed.contextWindow! };
}

/** What the estimate reads of a target's connection. */
interface TargetConnection {
  kind?: string;
  prices?: Parameters<typeof resolveModelPrice>[0]["connectionPrices"];
  defaultMaxTokens?: number | null;
}

/**
 * The cap an adapter sends when the request has none: Anthropic requires `max_tokens`, so a
 * translated request gets the connection's `defaultMaxTokens`, else the adapter's default.
 */
function adapterDefaultCap(connection: TargetConnection): number | null {
  if (connection.kind !== "anthropic") return null;
  const configured = connection.defaultMaxTokens;
  return typeof configured === "number" && Number.isInteger(configured) && configured > 0 ? configured : anthropicDefaultMaxTokens;
}

/** Tokens of a request's images (by the target's rule), audio and provider prompts. */
function mediaTokensOf(contents: RequestContents, model: string, provider: string): number {
  let tokens = contents.audioTokens + contents.promptOverheadTokens;
  for (const image of contents.images) tokens += imageTokenBound({ model, provider, size: image.size, detail: image.detail });
  return tokens;
}

/** Throws 424 `hard_budget_unbounded_request` when a hard budget applies to the caller (a hard budget elsewhere in the organization does not). */
function refuseUnderHardBudget(snapshot: CompiledSnapshot, identity: CallerIdentity, reason: string): void {
  for (const budget of snapshot.budgetIndex.budgetsFor(callerScopeOf(identity))) {
    if (budget.mode !== "hard") continue;
    throw new GatewayError("hard_budget_unbounded_request", {
      message: `The request's worst-case cost cannot be bounded (${reason}), so the hard budget refuses it.`,
      details: { budget_id: budget.id, scope: budget.scope },
    });
  }
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

/** OpenAI's `n` (choices generated, each up to the output cap); 1 when absent or not a positive integer. */
export function requestedChoices(body: Record<string, unknown>): number {
  const value = Object.hasOwn(body, "n") ? body.n : undefined;
  return typeof value === "number" && Number.isSafeInteger(value) && value > 1 ? value : 1;
}
