import type { ChatModel } from "../../provider-adapter.js";
import { translateOrThrow } from "../../upstream-call.js";
import type { BedrockClient } from "./bedrock-client.js";
import { bedrockModelIdOf } from "./bedrock-model-id.js";
import type { BedrockSettings } from "./bedrock-settings.js";
import { convertChatRequestToConverse } from "./convert-chat-request-to-converse.js";
import { convertConverseResponseToChat } from "./convert-converse-response-to-chat.js";
import { decodeConverseStream } from "./decode-converse-stream.js";

/**
 * The chat model of Bedrock's Converse API: every caller format reaches it as the neutral chat
 * request (`callChatModel` translates messages and Responses callers), translated to Converse
 * (`POST /model/{modelId}/converse`) or ConverseStream (`/converse-stream`, a binary event
 * stream decoded into parts). Usage is always reported (Converse always sends it).
 */
export function createBedrockChatModel(options: { client: BedrockClient; settings: BedrockSettings; provider: string }): ChatModel {
  const { client, settings, provider } = options;
  return {
    passthrough: [],
    maxTokensDefault: settings.defaultMaxTokens,
    async generate(request, target, context) {
      const call = translateOrThrow(provider, () => convertChatRequestToConverse(request, { defaultMaxTokens: settings.defaultMaxTokens }));
      const id = `chatcmpl-bedrock-${context.requestId}`;
      if (request.stream !== true) {
        const response = await client.postJson("converse", bedrockModelIdOf(target), call.body, context);
        const { completion, usage } = translateOrThrow(provider, () =>
          convertConverseResponseToChat(response.body, {
            id,
            model: target.qualifiedModel,
            provider,
            created: Math.floor(Date.now() / 1000),
            ...(call.jsonResponseTool === undefined ? {} : { jsonResponseTool: call.jsonResponseTool }),
          }),
        );
        return { kind: "json", status: response.status, body: completion, usage };
      }
      const response = await client.postStream("converse-stream", bedrockModelIdOf(target), call.body, context);
      return {
        kind: "stream",
        status: response.status,
        format: null,
        frames: decodeConverseStream(response.body, {
          id: null,
          model: target.qualifiedModel,
          provider,
          secrets: client.secrets(),
          ...(call.jsonResponseTool === undefined ? {} : { jsonResponseTool: call.jsonResponseTool }),
        }),
      };
    },
  };
}
