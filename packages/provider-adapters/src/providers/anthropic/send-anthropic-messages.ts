import { createMessagesStreamDecoder } from "../../formats/messages/create-messages-stream-decoder.js";
import { normalizeMessagesUsage } from "../../formats/messages/messages-usage.js";
import type { ProviderResult, TranslatedChatCall } from "../../provider-adapter.js";
import { decodeSseStream } from "../../stream/decode-sse-stream.js";
import { parseSseStream } from "../../stream/parse-sse-stream.js";
import { type UpstreamCallOptions, postJson, postStream } from "../../upstream-call.js";

/** Options of {@link sendAnthropicMessages}: one upstream call with a messages body (`body.stream` says JSON or SSE). */
export interface AnthropicMessagesCall extends UpstreamCallOptions {
  body: Record<string, unknown>;
  /** How the gateway wrote the body (absent: the caller's, its answer passed on as the provider's bytes). */
  translated: TranslatedChatCall | undefined;
}

/**
 * Sends a messages body to an API that answers as Anthropic's Messages API does (Anthropic,
 * Claude on Vertex AI): a JSON answer with its usage (the provider's bytes kept for a caller's
 * own body), or the SSE stream decoded into typed parts once, as `anthropic-messages` frames
 * (usage from `message_start` and the cumulative `message_delta`; a translated `response_format`
 * tool decoded as text). Errors and in-stream error events are redacted of `secrets`.
 */
export async function sendAnthropicMessages(call: AnthropicMessagesCall): Promise<ProviderResult> {
  const { translated } = call;
  if (call.body.stream !== true) {
    const response = await postJson(call);
    const usage = normalizeMessagesUsage(response.body.usage);
    return translated !== undefined
      ? { kind: "json", status: response.status, body: response.body, usage }
      : { kind: "json", status: response.status, body: response.body, bodyText: response.text, usage };
  }
  const response = await postStream({ ...call, headers: { ...call.headers, accept: "text/event-stream" } });
  const jsonResponseTool = translated?.jsonResponseTool;
  const decoder = createMessagesStreamDecoder(jsonResponseTool === undefined ? undefined : { jsonResponseTool });
  return {
    kind: "stream",
    status: response.status,
    format: "anthropic-messages",
    frames: decodeSseStream(parseSseStream(response.body), decoder, { secrets: call.secrets ?? [call.connection.credential] }),
  };
}
