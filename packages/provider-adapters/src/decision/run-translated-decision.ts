import { renderDecisionUsage } from "../formats/decisions/decision-usage.js";
import { checkDecisionResponse } from "@gateway/decision-schema";
import { CallAbort } from "../call-abort.js";
import { addUsage } from "../provider-adapter.js";
import type { DecisionResult, ProviderCallContext, ProviderTarget } from "../provider-adapter.js";
import { checkTranslatableDecision } from "./check-translatable-decision.js";
import type { DecisionAnswer, DecisionRequest, DecisionResponse } from "./decision-contract.js";
import type { DecisionAsker } from "./decision-asker.js";
import { decideWithLogprobs } from "./decide-with-logprobs.js";
import { decideWithStatedProbabilities } from "./decide-with-stated-probabilities.js";

/**
 * Answers a decision request through a chat provider: rejects what cannot be represented
 * (`unsupported_feature`), asks every question in parallel (the first failure cancels the
 * other calls), sums usage, and checks the built response with `checkDecisionResponse`.
 */
export async function runTranslatedDecision(options: {
  request: DecisionRequest;
  target: ProviderTarget;
  context: ProviderCallContext;
  asker: DecisionAsker;
}): Promise<DecisionResult> {
  const { request, target, context, asker } = options;
  const provider = target.connection.name;
  checkTranslatableDecision(request, provider);

  // The questions' calls share one abort: the caller's, or the first failure's (the others are then moot).
  const siblings = new CallAbort();
  if (context.abort.aborted) siblings.abort();
  const stopFollowing = context.abort.subscribe(() => siblings.abort());
  const callContext: ProviderCallContext = {
    requestId: context.requestId,
    deadline: context.deadline,
    abort: siblings,
    ...(context.extraHeaders === undefined ? {} : { extraHeaders: context.extraHeaders }),
  };
  const entries = Object.entries(request.questions);
  let results;
  try {
    results = await Promise.all(
      entries.map(([, question]) =>
        asker.source === "logprobs"
          ? decideWithLogprobs({ question, state: request.state, asker, context: callContext, provider })
          : decideWithStatedProbabilities({ question, state: request.state, asker, context: callContext }),
      ),
    );
  } catch (error) {
    siblings.abort();
    throw error;
  } finally {
    stopFollowing();
  }

  // fromEntries defines own keys: a question named `__proto__` is answered under that key.
  const answers: Record<string, DecisionAnswer> = Object.fromEntries(entries.map(([name], index) => [name, results[index]!.answer]));
  const usage = addUsage(...results.map((result) => result.usage));
  const response: DecisionResponse = {
    answers,
    model: target.qualifiedModel,
    usage: renderDecisionUsage(usage),
  };
  return { response: checkDecisionResponse(request, response), usage };
}
