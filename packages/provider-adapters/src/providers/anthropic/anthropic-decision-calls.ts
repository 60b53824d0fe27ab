import { normalizeMessagesUsage } from "../../formats/messages/messages-usage.js";
import { malformedAnswer, postJson } from "../../upstream-call.js";
import type { DecisionAsker, DecisionCall } from "../../decision/decision-asker.js";
import { parseStatedProbabilities, probabilitiesJsonSchema } from "../../decision/stated-probabilities.js";

/** Name of the tool the model is forced to call with its probabilities. */
export const probabilityToolName = "record_probabilities";

/** How an API that speaks Anthropic messages differently (Claude on Vertex AI) takes the call. */
export interface AnthropicAskerOptions {
  /** The body as the upstream takes it (default: as written, `model` in it). */
  upstreamBody?(body: Record<string, unknown>): Record<string, unknown>;
  /** Strings never shown in a mapped error (default: the connection's credential). */
  secrets?: readonly (string | null | undefined)[];
}

/**
 * Stated-probability asker over Anthropic messages: a forced tool call
 * (`tool_choice: {type: "tool", name: "record_probabilities"}`) whose input schema has one
 * number field per label, `temperature: 0`, `max_tokens` = 256 + 16 per option.
 * `stop_reason: "refusal"` is a refusal.
 */
export function createAnthropicStatedAsker(call: DecisionCall, options: AnthropicAskerOptions = {}): DecisionAsker {
  const upstreamBody = options.upstreamBody ?? ((body: Record<string, unknown>) => body);
  return {
    source: "stated",
    async askProbabilities(prompt, fields, context) {
      const response = await postJson({
        transport: call.transport,
        connection: call.connection,
        url: call.url,
        headers: call.headers,
        context,
        ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
        body: upstreamBody({
          model: call.model,
          max_tokens: 256 + 16 * fields.length,
          temperature: 0,
          system: prompt.system,
          messages: [{ role: "user", content: prompt.user }],
          tools: [
            {
              name: probabilityToolName,
              description: "Records the probability (0 to 1) of every option; the probabilities sum to 1.",
              input_schema: probabilitiesJsonSchema(fields),
            },
          ],
          tool_choice: { type: "tool", name: probabilityToolName },
        }),
      });
      const usage = normalizeMessagesUsage(response.body.usage);
      if (response.body.stop_reason === "refusal") return { kind: "refusal", usage };
      const content = Array.isArray(response.body.content) ? (response.body.content as Record<string, unknown>[]) : [];
      const toolUse = content.find((block) => block?.type === "tool_use" && block.name === probabilityToolName);
      if (toolUse === undefined) throw malformedAnswer(call.connection.name, "has no probability tool call");
      return { kind: "weights", weights: parseStatedProbabilities(toolUse.input, fields, call.connection.name), usage };
    },
  };
}
