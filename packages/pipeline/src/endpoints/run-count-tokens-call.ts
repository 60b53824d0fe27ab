import { GatewayError, ProviderPassthroughError, normalizeError } from "@gateway/errors";
import type { ProviderTarget, TokenCount } from "@gateway/provider-adapters";
import { applyCallerGuardrails } from "../stages/apply-caller-guardrails.js";
import { type CallerIdentity, authenticate } from "../stages/authenticate.js";
import { buildUsageEvent } from "../stages/build-usage-event.js";
import { callProvider } from "../stages/call-provider.js";
import { parseChatBody } from "./parse-chat-body.js";
import type { PipelineDependencies } from "../call/pipeline-dependencies.js";
import type { PipelineJsonResponse } from "../call/pipeline-response.js";
import { renderErrorResponse } from "../call/render-error-response.js";
import { type RequestContext, createRequestContext } from "../stages/request-context.js";
import type { RequestHeaders } from "../stages/request-headers.js";
import { type RoutePlan, resolveRoute } from "../stages/resolve-route.js";
import { runWithDeadline } from "../call/run-with-deadline.js";

/** Header of a count_tokens answer: `provider` (counted by the provider) or `local` (by the gateway). */
export const tokenCountSourceHeader = "x-gateway-token-count";
/** Header of a count_tokens answer: `exact` or `estimate`. */
export const tokenCountAccuracyHeader = "x-gateway-token-count-accuracy";

/** Input of {@link runCountTokensCall}. */
export interface CountTokensCallInput {
  requestId: string;
  headers: RequestHeaders;
  readBody: () => Promise<unknown>;
  signal?: AbortSignal;
  startedAt?: number;
}

/**
 * `POST /v1/messages/count_tokens` as a function (Anthropic format): authenticate (Bearer or
 * `x-api-key`) -> validate -> policy and route -> input guardrails -> count. Anthropic
 * connections count natively (`x-gateway-token-count: provider`); OpenAI-compatible and demo
 * connections are counted by the gateway (`x-gateway-token-count: local`), with
 * `x-gateway-token-count-accuracy: exact | estimate` (exact only where the tokenizer and the
 * message rendering are known; see the gateway README). Counting costs nothing, so no budget or
 * rate-limit admission happens; a usage event (no tokens, no cost) is still recorded. Errors use
 * the Anthropic error body. Never throws.
 */
export async function runCountTokensCall(
  dependencies: PipelineDependencies,
  input: CountTokensCallInput,
): Promise<PipelineJsonResponse> {
  const startedAt = input.startedAt ?? Date.now();
  let context: RequestContext | null = null;
  let identity: CallerIdentity | null = null;
  let plan: RoutePlan | null = null;
  let requestedModel: string | null = null;
  let target: ProviderTarget | null = null;
  let guardrailFlags: string[] = [];
  const finish = (status: number, error: GatewayError | null) =>
    dependencies.usage.enqueue(
      buildUsageEvent({
        context,
        requestId: input.requestId,
        endpoint: "count_tokens",
        startedAt,
        identity,
        requestedModel,
        route: plan?.route ?? null,
        target,
        status,
        errorCode: error?.code ?? null,
        guardrailFlags,
      }),
    );
  try {
    const callContext = createRequestContext({
      requestId: input.requestId,
      headers: input.headers,
      endpoint: "count_tokens",
      timeoutMs: dependencies.requestTimeoutMs,
      startedAt,
    });
    context = callContext;
    const count = await runWithDeadline({ deadline: callContext.deadline, signal: input.signal }, async (scope) => {
      const snapshot = dependencies.snapshots.current();
      const caller = authenticate(input.headers, snapshot, { allowApiKeyHeader: true });
      identity = caller;
      const parsed = parseChatBody(await input.readBody());
      requestedModel = parsed.model;
      const routePlan = await resolveRoute({
        snapshot,
        identity: caller,
        model: parsed.model,
        context: callContext,
        affinityStore: dependencies.affinityStore,
        latencyTracker: dependencies.latencyTracker,
      });
      plan = routePlan;
      const guarded = applyCallerGuardrails({ snapshot, identity: caller, body: parsed, format: "anthropic_messages" });
      guardrailFlags = guarded.flags;
      const outcome = await callProvider<TokenCount>({
        plan: routePlan,
        scope,
        affinityStore: dependencies.affinityStore,
        latencyTracker: dependencies.latencyTracker,
        onAttempt: (attempted) => {
          target = attempted;
        },
        call: (attempted) =>
          dependencies.adapters
            .adapterFor(attempted.connection)
            .countTokens(
              guarded.body,
              attempted,
              { requestId: callContext.requestId, signal: scope.signal, deadline: scope.deadline },
              input.headers,
            ),
      });
      target = outcome.target;
      return outcome.result;
    });
    finish(200, null);
    return {
      status: 200,
      headers: {
        "x-request-id": input.requestId,
        [tokenCountSourceHeader]: count.local ? "local" : "provider",
        [tokenCountAccuracyHeader]: !count.local || count.exact === true ? "exact" : "estimate",
      },
      body: { input_tokens: count.inputTokens },
    };
  } catch (thrown) {
    let error = normalizeError(thrown);
    if (context !== null && Date.now() >= context.deadline && error.code !== "client_cancelled") {
      error = new GatewayError("request_timeout", { cause: thrown });
    }
    if (error.code === "internal_error") dependencies.onInternalError?.(thrown, input.requestId);
    finish(ProviderPassthroughError.isInstance(error) ? error.upstreamStatus : error.status, error);
    return renderErrorResponse(error, { requestId: input.requestId, format: "anthropic" });
  }
}
