import { normalizeChatUsage } from "../../formats/chat-completions/chat-usage.js";
import { malformedAnswer, postJson } from "../../upstream-call.js";
import type { AskOutcome, DecisionAsker, DecisionCall } from "../../decision/decision-asker.js";
import { mergeLabelLogprobs } from "../../decision/merge-label-logprobs.js";
import type { TokenLogprob } from "../../decision/merge-label-logprobs.js";
import { parseStatedProbabilities, probabilitiesJsonSchema } from "../../decision/stated-probabilities.js";

/**
 * Label asker over OpenAI chat completions: `temperature: 0`, `max_completion_tokens: 1`,
 * `logprobs: true`, `top_logprobs: 20`; weights from the first token's top log-probabilities
 * (variants merged). `message.refusal` or `finish_reason: "content_filter"` is a refusal.
 */
export function createOpenAiLabelAsker(call: DecisionCall): DecisionAsker {
  return {
    source: "logprobs",
    async askLabel(prompt, labels, context) {
      const response = await postJson({
        transport: call.transport,
        connection: call.connection,
        url: call.url,
        headers: call.headers,
        context,
        body: {
          model: call.model,
          messages: [
            { role: "system", content: prompt.system },
            { role: "user", content: prompt.user },
          ],
          temperature: 0,
          max_completion_tokens: 1,
          logprobs: true,
          top_logprobs: 20,
          n: 1,
        },
      });
      const usage = normalizeChatUsage(response.body.usage);
      const choice = firstChoice(response.body, call.connection.name);
      if (isRefusal(choice)) return { kind: "refusal", usage };
      const first = (choice.logprobs as { content?: unknown } | null | undefined)?.content;
      const token = Array.isArray(first) ? (first[0] as Record<string, unknown> | undefined) : undefined;
      if (token === undefined || typeof token.token !== "string") {
        throw malformedAnswer(call.connection.name, "has no token log-probabilities (the model may not support logprobs)");
      }
      const top = Array.isArray(token.top_logprobs) ? (token.top_logprobs as TokenLogprob[]) : [];
      const candidates = top.length > 0 ? top : [token as unknown as TokenLogprob];
      return { kind: "weights", weights: mergeLabelLogprobs(candidates, labels), usage } satisfies AskOutcome;
    },
  };
}

/**
 * Stated-probability asker over OpenAI chat completions with `response_format: json_schema`
 * (strict), one number field per label. No `temperature` is sent: the models that need this
 * path (reasoning models without logprobs) reject any value but the default.
 */
export function createOpenAiStatedAsker(call: DecisionCall): DecisionAsker {
  return {
    source: "stated",
    async askProbabilities(prompt, fields, context) {
      const response = await postJson({
        transport: call.transport,
        connection: call.connection,
        url: call.url,
        headers: call.headers,
        context,
        body: {
          model: call.model,
          messages: [
            { role: "system", content: prompt.system },
            { role: "user", content: prompt.user },
          ],
          response_format: {
            type: "json_schema",
            json_schema: { name: "option_probabilities", strict: true, schema: probabilitiesJsonSchema(fields) },
          },
        },
      });
      const usage = normalizeChatUsage(response.body.usage);
      const choice = firstChoice(response.body, call.connection.name);
      if (isRefusal(choice)) return { kind: "refusal", usage };
      const content = (choice.message as { content?: unknown } | undefined)?.content;
      if (typeof content !== "string") throw malformedAnswer(call.connection.name, "has no message content");
      let parsed: unknown;
      try {
        parsed = JSON.parse(content);
      } catch {
        throw malformedAnswer(call.connection.name, "is not the requested JSON object");
      }
      return { kind: "weights", weights: parseStatedProbabilities(parsed, fields, call.connection.name), usage };
    },
  };
}

function firstChoice(body: Record<string, unknown>, provider: string): Record<string, unknown> {
  const choice = Array.isArray(body.choices) ? (body.choices[0] as unknown) : undefined;
  if (typeof choice !== "object" || choice === null) throw malformedAnswer(provider, "has no choices");
  return choice as Record<string, unknown>;
}

function isRefusal(choice: Record<string, unknown>): boolean {
  const refusal = (choice.message as { refusal?: unknown } | undefined)?.refusal;
  return (typeof refusal === "string" && refusal !== "") || choice.finish_reason === "content_filter";
}
