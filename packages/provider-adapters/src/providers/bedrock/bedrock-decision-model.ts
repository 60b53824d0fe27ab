import type { DecisionAsker } from "../../decision/decision-asker.js";
import { runTranslatedDecision } from "../../decision/run-translated-decision.js";
import { parseStatedProbabilities, probabilitiesJsonSchema } from "../../decision/stated-probabilities.js";
import type { DecisionModel } from "../../provider-adapter.js";
import { malformedAnswer } from "../../upstream-call.js";
import type { BedrockClient } from "./bedrock-client.js";
import { bedrockModelIdOf } from "./bedrock-model-id.js";
import { normalizeConverseUsage } from "./converse-usage.js";

/** Name of the tool the model is asked to call with its probabilities. */
export const bedrockProbabilityToolName = "record_probabilities";

/** Whether a model takes a forced tool choice (`toolChoice: {tool}`): Claude, Nova and Mistral Large on Bedrock. */
function forcesToolChoice(modelId: string): boolean {
  return /(?:^|\.)(?:anthropic\.claude|amazon\.nova|mistral\.mistral-large)/.test(modelId);
}

/**
 * Decisions through Converse with stated probabilities: one call per question whose tool
 * `record_probabilities` has a number field per option (forced where the model allows, else
 * offered with `auto`), `temperature: 0`, `maxTokens` = 256 + 16 per option. A guardrail or
 * content-filter stop is a refusal.
 */
export function createBedrockDecisionModel(options: { client: BedrockClient; provider: string }): DecisionModel {
  const { client, provider } = options;
  return {
    passthrough: [],
    logprobs: false,
    async decide(request, target, context) {
      const modelId = bedrockModelIdOf(target);
      const asker: DecisionAsker = {
        source: "stated",
        async askProbabilities(prompt, fields, callContext) {
          const response = await client.postJson(
            "converse",
            modelId,
            {
              system: [{ text: prompt.system }],
              messages: [{ role: "user", content: [{ text: prompt.user }] }],
              inferenceConfig: { maxTokens: 256 + 16 * fields.length, temperature: 0 },
              toolConfig: {
                tools: [{ toolSpec: { name: bedrockProbabilityToolName, description: "Records the probability (0 to 1) of every option; the probabilities sum to 1.", inputSchema: { json: probabilitiesJsonSchema(fields) } } }],
                toolChoice: forcesToolChoice(modelId) ? { tool: { name: bedrockProbabilityToolName } } : { auto: {} },
              },
            },
            callContext,
          );
          const usage = normalizeConverseUsage(response.body.usage);
          if (response.body.stopReason === "guardrail_intervened" || response.body.stopReason === "content_filtered") return { kind: "refusal", usage };
          const content = (response.body.output as { message?: { content?: unknown } } | undefined)?.message?.content;
          const toolUse = Array.isArray(content)
            ? (content as { toolUse?: { name?: unknown; input?: unknown } }[]).find((block) => block?.toolUse?.name === bedrockProbabilityToolName)?.toolUse
            : undefined;
          if (toolUse === undefined) throw malformedAnswer(provider, "has no probability tool call");
          return { kind: "weights", weights: parseStatedProbabilities(toolUse.input, fields, provider), usage };
        },
      };
      return runTranslatedDecision({ request, target, context, asker });
    },
  };
}
