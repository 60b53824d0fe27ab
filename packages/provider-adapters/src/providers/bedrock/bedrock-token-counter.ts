import type { ChatRequest } from "../../chat-request.js";
import { convertMessagesRequestToChat } from "../../formats/messages/convert-messages-request-to-chat.js";
import type { TokenCounter } from "../../provider-adapter.js";
import { countTokensLocally } from "../../token-counting/count-tokens-locally.js";
import { malformedAnswer, translateOrThrow, translateOrThrowAsync } from "../../upstream-call.js";
import type { BedrockClient } from "./bedrock-client.js";
import { bedrockModelIdOf } from "./bedrock-model-id.js";
import { convertChatRequestToConverse } from "./convert-chat-request-to-converse.js";

/** Whether Bedrock's CountTokens API counts for a model id (Anthropic Claude models). */
export function bedrockCountsTokens(modelId: string): boolean {
  return /(?:^|[.:/])anthropic\.claude/.test(modelId);
}

/**
 * Token counts: Bedrock's CountTokens API (`POST /model/{modelId}/count-tokens` with the
 * request as a Converse input: messages, system and tools) for the models it counts (Claude);
 * the gateway's local counter (an estimate for these families) for the others.
 */
export function createBedrockTokenCounter(options: { client: BedrockClient; provider: string }): TokenCounter {
  const { client, provider } = options;
  return {
    passthrough: [],
    async countTokens(body, target, context) {
      const modelId = bedrockModelIdOf(target);
      if (!bedrockCountsTokens(modelId)) {
        const count = await translateOrThrowAsync(provider, () => countTokensLocally(body, target.upstreamModel));
        return { inputTokens: count.inputTokens, local: true, exact: count.exact };
      }
      const converse = translateOrThrow(provider, () => {
        const chat = convertMessagesRequestToChat({ ...body, max_tokens: 1 }, { model: target.upstreamModel }) as ChatRequest;
        return convertChatRequestToConverse(chat, { defaultMaxTokens: 1 }).body;
      });
      const input = { messages: converse.messages, ...(converse.system === undefined ? {} : { system: converse.system }), ...(converse.toolConfig === undefined ? {} : { toolConfig: converse.toolConfig }) };
      const response = await client.postJson("count-tokens", modelId, { input: { converse: input } }, context);
      const inputTokens = response.body.inputTokens;
      if (typeof inputTokens !== "number" || !Number.isInteger(inputTokens) || inputTokens < 0) throw malformedAnswer(provider, "has no valid inputTokens");
      return { inputTokens, local: false };
    },
  };
}
