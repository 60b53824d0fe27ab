import { unsupportedCapability } from "@gateway/provider-adapters";
import { type DecisionRequest, checkDecisionResponse, parseDecisionRequest } from "@gateway/decision-schema";
import { modelRouter } from "../call/call-router.js";
import type { InferenceEndpoint } from "../call/inference-endpoint.js";
import { callerScopeOf } from "../stages/admit-call.js";

/**
 * `POST /v1/systemone`: typed decisions (native or translated by the adapter). Hard budgets
 * refuse decisions with 424 (their output cannot be capped); token rate limits count a rough
 * upper bound (characters / 4 plus 16 a question). The answer is checked against the request
 * (one answer per question key). Decision content is never captured. Errors use the gateway
 * body; a native provider's own error passes through.
 */
export const decisionEndpoint: InferenceEndpoint<DecisionRequest> = {
  name: "decisions",
  router: modelRouter("decisions"),
  errorFormat: "gateway",
  capturesContent: false,
  guardrailFormat: "decision",
  parse: parseDecisionRequest,
  model: (request) => request.model,
  admission({ snapshot, identity, request }) {
    const hasTokenLimits = snapshot.budgetIndex.hasTokenLimit(callerScopeOf(identity));
    return {
      estimatedCostMicros: 0,
      estimatedTokens: hasTokenLimits ? Math.ceil(JSON.stringify(request).length / 4) + 16 * Object.keys(request.questions).length : 0,
      isDecision: true,
    };
  },
  async invoke({ adapter, request, target, context }) {
    const model = adapter.decisions ?? unsupportedCapability(target, "decisions");
    const answer = await model.decide(request, target, context);
    return {
      kind: "json",
      status: 200,
      body: checkDecisionResponse(request, answer.response),
      ...(answer.headers === undefined ? {} : { headers: answer.headers }),
      usage: answer.usage,
    };
  },
};
