import { unsupportedCapability } from "@gateway/provider-adapters";
import { modelRouter } from "../call/call-router.js";
import type { InferenceEndpoint } from "../call/inference-endpoint.js";
import { type ChatBody, parseChatBody } from "./parse-chat-body.js";

/** Header of a count_tokens answer: `provider` (counted by the provider) or `local` (by the gateway). */
export const tokenCountSourceHeader = "x-gateway-token-count";
/** Header of a count_tokens answer: `exact` or `estimate`. */
export const tokenCountAccuracyHeader = "x-gateway-token-count-accuracy";

/**
 * `POST /v1/messages/count_tokens` (Anthropic format; Bearer or `x-api-key`). A token counter
 * that passes the body through counts upstream (Anthropic: `x-gateway-token-count: provider`);
 * others (OpenAI-compatible, demo) are counted by the gateway (`x-gateway-token-count: local`), with
 * `x-gateway-token-count-accuracy: exact | estimate`. Counting costs nothing, so there is no
 * budget or rate-limit admission; a usage event (no tokens, no cost) is still recorded. The
 * upstream call is bounded like any JSON call. Errors use the Anthropic error body.
 */
export const countTokensEndpoint: InferenceEndpoint<ChatBody> = {
  name: "count_tokens",
  router: modelRouter("messages"),
  errorFormat: "anthropic",
  allowApiKeyHeader: true,
  capturesContent: false,
  guardrailFormat: "anthropic_messages",
  parse: (body) => parseChatBody(body, "anthropic"),
  model: (request) => request.model,
  admission: () => null,
  async invoke({ adapter, request, target, context, headers }) {
    const counter = adapter.tokenCounter ?? unsupportedCapability(target, "token counting");
    const count = await counter.countTokens(request, target, context, headers);
    return {
      kind: "json",
      status: 200,
      headers: {
        [tokenCountSourceHeader]: count.local ? "local" : "provider",
        [tokenCountAccuracyHeader]: !count.local || count.exact === true ? "exact" : "estimate",
      },
      body: { input_tokens: count.inputTokens },
      usage: null,
    };
  },
};
