import { z } from "zod";
import { translatedMaxTokensDefault } from "../../formats/messages/convert-chat-request-to-anthropic.js";
import { defineProvider } from "../provider-definition.js";
import {
  anthropicCredentialHeaders,
  anthropicDefaultBaseUrl,
  createAnthropicChatModel,
  createAnthropicDecisionModel,
  createAnthropicTokenCounter,
} from "./anthropic-adapter.js";

/**
 * `max_tokens` sent upstream when an OpenAI-format request (translated to Anthropic) has neither
 * `max_completion_tokens` nor `max_tokens`: Anthropic requires one. A connection's
 * `defaultMaxTokens` overrides it.
 */
export const anthropicDefaultMaxTokens = translatedMaxTokensDefault;

/** The Anthropic Messages API (no embeddings API). */
export const provider = defineProvider({
  kind: "anthropic",
  label: "Anthropic",
  network: true,
  defaultBaseUrl: anthropicDefaultBaseUrl,
  baseUrlPathIsApiRoot: false,
  credentialHeaders: anthropicCredentialHeaders,
  settingsSchema: z.object({ defaultMaxTokens: z.number().int().positive().catch(anthropicDefaultMaxTokens).default(anthropicDefaultMaxTokens) }),
  chat: createAnthropicChatModel,
  tokenCounter: (connection, _settings, dependencies) => createAnthropicTokenCounter(connection, dependencies),
  decisions: (connection, _settings, dependencies) => createAnthropicDecisionModel(connection, dependencies),
});
