import type { JsonObject } from "@gateway/contracts";
import type { ChatRequest } from "../../chat-request.js";
import { convertMessagesRequestToChat } from "../../formats/messages/convert-messages-request-to-chat.js";
import type { AdapterConnection, TokenCounter } from "../../provider-adapter.js";
import { malformedAnswer, translateOrThrow } from "../../upstream-call.js";
import type { ProviderAdapterDependencies } from "../provider-definition.js";
import { convertChatRequestToGemini } from "./convert-chat-request-to-gemini.js";
import { postGeminiJson } from "./gemini-call.js";
import { type GeminiEndpoint, geminiModelId } from "./gemini-endpoint.js";

/** Options of {@link createGeminiTokenCounter}. */
export interface GeminiTokenCounterOptions {
  /**
   * The `countTokens` body of a translated `generateContent` body. Default (the Gemini API): the
   * request whole, `{generateContentRequest: {model: "models/<id>", ...}}` (so the system
   * instruction and tools are counted); Vertex AI takes `contents`, `systemInstruction` and
   * `tools` at the top level.
   */
  countTokensBody?: (model: string, generateContentBody: JsonObject) => JsonObject;
}

function geminiApiCountTokensBody(model: string, generateContentBody: JsonObject): JsonObject {
  return { generateContentRequest: { model: `models/${decodeURIComponent(geminiModelId(model))}`, ...generateContentBody } };
}

/**
 * Token counts are Gemini's own (`countTokens`): the Anthropic `count_tokens` body is translated
 * as a messages request would be (so unsupported fields fail the same way) into a
 * `generateContent` body, whose `totalTokens` is the answer.
 */
export function createGeminiTokenCounter(
  connection: AdapterConnection,
  _settings: unknown,
  dependencies: ProviderAdapterDependencies,
  endpoint: GeminiEndpoint,
  options: GeminiTokenCounterOptions = {},
): TokenCounter {
  const countTokensBody = options.countTokensBody ?? geminiApiCountTokensBody;
  return {
    passthrough: [],
    async countTokens(body, target, context) {
      const model = target.upstreamModel;
      const generateContentBody = translateOrThrow(connection.name, () => {
        const chatRequest = convertMessagesRequestToChat({ ...body, max_tokens: 1 }, { model }) as ChatRequest;
        // The output cap is ours (count_tokens has none): it is not part of what is counted.
        const { max_completion_tokens: _cap, max_tokens: _max, ...request } = chatRequest;
        const converted = convertChatRequestToGemini(request as ChatRequest);
        delete converted.generationConfig;
        return converted;
      });
      const response = await postGeminiJson({
        transport: dependencies.transport, connection, endpoint, model, method: "countTokens", body: countTokensBody(model, generateContentBody), context,
      });
      const total = response.body.totalTokens;
      if (typeof total !== "number" || !Number.isInteger(total) || total < 0) throw malformedAnswer(connection.name, "has no valid totalTokens");
      return { inputTokens: total, local: false };
    },
  };
}
