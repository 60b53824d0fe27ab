import { GatewayError } from "@gateway/errors";
import { runTranslatedDecision } from "../../decision/run-translated-decision.js";
import type { AdapterConnection, DecisionModel } from "../../provider-adapter.js";
import type { ProviderAdapterDependencies } from "../provider-definition.js";
import { createGeminiLabelAsker, createGeminiStatedAsker } from "./gemini-decision-calls.js";
import type { GeminiEndpoint } from "./gemini-endpoint.js";

/**
 * Decisions through `generateContent`: single-token labels with measured log-probabilities
 * (`responseLogprobs`), or, when the connection says `logprobs: false`, stated probabilities
 * (a JSON schema answer). A model that rejects log-probabilities (400 naming them) is asked
 * again with stated probabilities.
 */
export function createGeminiDecisionModel(
  connection: AdapterConnection,
  settings: { logprobs: boolean },
  dependencies: ProviderAdapterDependencies,
  endpoint: GeminiEndpoint,
): DecisionModel {
  return {
    passthrough: [],
    logprobs: settings.logprobs,
    async decide(request, target, context) {
      const call = { transport: dependencies.transport, connection, endpoint, model: target.upstreamModel };
      if (!settings.logprobs) return runTranslatedDecision({ request, target, context, asker: createGeminiStatedAsker(call) });
      try {
        return await runTranslatedDecision({ request, target, context, asker: createGeminiLabelAsker(call) });
      } catch (error) {
        if (!rejectsLogprobs(error)) throw error;
        return runTranslatedDecision({ request, target, context, asker: createGeminiStatedAsker(call) });
      }
    },
  };
}

function rejectsLogprobs(error: unknown): boolean {
  return GatewayError.isInstance(error) && error.code === "invalid_request" && /logprob/i.test(error.message);
}
