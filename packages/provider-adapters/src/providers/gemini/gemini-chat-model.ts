import type { ChatModel } from "../../provider-adapter.js";
import type { AdapterConnection } from "../../provider-adapter.js";
import { decodeSseStream } from "../../stream/decode-sse-stream.js";
import { parseSseStream } from "../../stream/parse-sse-stream.js";
import { translateOrThrow } from "../../upstream-call.js";
import type { ProviderAdapterDependencies } from "../provider-definition.js";
import { convertChatRequestToGemini } from "./convert-chat-request-to-gemini.js";
import { convertGeminiResponseToChat } from "./convert-gemini-response-to-chat.js";
import { createGeminiStreamDecoder } from "./create-gemini-stream-decoder.js";
import { postGeminiJson, postGeminiStream } from "./gemini-call.js";
import type { GeminiEndpoint } from "./gemini-endpoint.js";
import { normalizeGeminiUsage } from "./gemini-usage.js";

/**
 * The chat model of Gemini (the Gemini API or Vertex AI, by `endpoint`): every caller format is
 * answered through the neutral request (`generate`), translated once into a `generateContent`
 * body (see `convertChatRequestToGemini`); a JSON answer comes back as a chat completion, a
 * stream (`streamGenerateContent?alt=sse`) as frames of parts (see `createGeminiStreamDecoder`)
 * that the caller's encoder renders. Usage is in every answer (`usageMetadata`).
 */
export function createGeminiChatModel(connection: AdapterConnection, _settings: unknown, dependencies: ProviderAdapterDependencies, endpoint: GeminiEndpoint): ChatModel {
  const { transport } = dependencies;
  return {
    passthrough: [],
    async generate(request, _target, context) {
      const body = translateOrThrow(connection.name, () => convertChatRequestToGemini(request));
      const model = request.model;
      if (request.stream !== true) {
        const response = await postGeminiJson({ transport, connection, endpoint, model, method: "generateContent", body, context });
        const completion = translateOrThrow(connection.name, () => convertGeminiResponseToChat(response.body, { model }));
        return { kind: "json", status: response.status, body: completion, usage: normalizeGeminiUsage(response.body.usageMetadata) };
      }
      const { response, secrets } = await postGeminiStream({ transport, connection, endpoint, model, method: "streamGenerateContent", body, context });
      const decoder = createGeminiStreamDecoder({ secrets });
      return { kind: "stream", status: response.status, format: null, frames: decodeSseStream(parseSseStream(response.body), decoder, { secrets }) };
    },
  };
}
