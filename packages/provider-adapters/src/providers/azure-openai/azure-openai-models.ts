import { GatewayError } from "@gateway/errors";
import { copyFields } from "../../copy-fields.js";
import { runTranslatedDecision } from "../../decision/run-translated-decision.js";
import { createChatStreamDecoder } from "../../formats/chat-completions/create-chat-stream-decoder.js";
import { normalizeChatUsage } from "../../formats/chat-completions/chat-usage.js";
import { createResponsesStreamDecoder } from "../../formats/responses/create-responses-stream-decoder.js";
import { normalizeResponsesUsage } from "../../formats/responses/responses-usage.js";
import { modelEndpointsOf } from "../../model-endpoints.js";
import type { AdapterConnection, ChatModel, DecisionModel, EmbeddingModel, ProviderCallContext, ProviderResult } from "../../provider-adapter.js";
import { decodeSseStream } from "../../stream/decode-sse-stream.js";
import { parseSseStream } from "../../stream/parse-sse-stream.js";
import { servedModelOf } from "../../upstream-call.js";
import { createOpenAiLabelAsker, createOpenAiStatedAsker } from "../openai/openai-decision-calls.js";
import type { ProviderAdapterDependencies } from "../provider-definition.js";
import { azureOpenAiCaller } from "./azure-openai-caller.js";
import { azureDeploymentOf } from "./azure-openai-endpoint.js";
import type { AzureOpenAiSettings } from "./azure-openai-settings.js";

/**
 * The chat model of an Azure OpenAI resource. Chat completions pass through to the target's
 * deployment (`/openai/deployments/<deployment>/chat/completions?api-version=`, or
 * `/openai/v1/chat/completions` with the deployment as `model`), streams with the usage chunk
 * always asked for; Azure's `prompt_filter_results` / `content_filter_results` and
 * `finish_reason: "content_filter"` reach the caller as Azure sent them. On the v1 API, Responses
 * requests of models that answer `responses` pass through (`/openai/v1/responses`, `store:
 * false`); other Responses requests and messages requests are translated to chat completions.
 */
export function createAzureOpenAiChatModel(connection: AdapterConnection, settings: AzureOpenAiSettings, dependencies: ProviderAdapterDependencies): ChatModel {
  const caller = azureOpenAiCaller(connection, settings, dependencies);

  async function post(url: string, body: Record<string, unknown>, format: "openai-chat" | "openai-responses", context: ProviderCallContext, passthrough: boolean): Promise<ProviderResult> {
    if (body.stream !== true) {
      const response = await caller.postJson(url, body, context);
      const usage = format === "openai-chat" ? normalizeChatUsage(response.body.usage) : normalizeResponsesUsage(response.body.usage);
      return passthrough
        ? { kind: "json", status: response.status, body: response.body, bodyText: response.text, usage }
        : { kind: "json", status: response.status, body: response.body, usage };
    }
    const response = await caller.postStream(url, body, context);
    const decoder = format === "openai-chat" ? createChatStreamDecoder() : createResponsesStreamDecoder();
    return { kind: "stream", status: response.status, format, frames: decodeSseStream(parseSseStream(response.body), decoder, { secrets: [connection.credential] }) };
  }

  return {
    passthrough: ["openai-chat", "openai-responses"],
    passesThrough(format, target) {
      if (format === "openai-chat") return true;
      return format === "openai-responses" && settings.apiStyle === "v1" && modelEndpointsOf(connection, servedModelOf(target)).includes("responses");
    },
    async send(format, body, target, context, _headers, translated) {
      const deployment = azureDeploymentOf(settings, target);
      if (format === "openai-responses") {
        const upstreamBody = copyFields(body);
        upstreamBody.model = deployment;
        upstreamBody.store = false;
        return post(caller.url("/responses", null), upstreamBody, "openai-responses", context, true);
      }
      if (format !== "openai-chat") throw new Error(`An Azure OpenAI chat model sends no ${format} requests.`);
      const url = caller.url("/chat/completions", deployment);
      if (translated !== undefined) {
        // The gateway's own body: the v1 API reads the deployment from `model`.
        body.model = deployment;
        return post(url, body, "openai-chat", context, false);
      }
      const upstreamBody = copyFields(body);
      upstreamBody.model = deployment;
      if (body.stream === true) {
        const callerOptions = body.stream_options;
        const streamOptions = typeof callerOptions === "object" && callerOptions !== null ? copyFields(callerOptions as Record<string, unknown>) : {};
        streamOptions.include_usage = true;
        upstreamBody.stream_options = streamOptions;
      }
      return post(url, upstreamBody, "openai-chat", context, true);
    },
  };
}

/** Embeddings pass through to the target's deployment (`.../embeddings`), the deployment as `model`. */
export function createAzureOpenAiEmbeddingModel(connection: AdapterConnection, settings: AzureOpenAiSettings, dependencies: ProviderAdapterDependencies): EmbeddingModel {
  const caller = azureOpenAiCaller(connection, settings, dependencies);
  return {
    passthrough: ["openai-embeddings"],
    async embed(body, target, context) {
      const deployment = azureDeploymentOf(settings, target);
      const response = await caller.postJson(caller.url("/embeddings", deployment), { ...body, model: deployment }, context);
      return { kind: "json", status: response.status, body: response.body, bodyText: response.text, usage: normalizeChatUsage(response.body.usage) };
    },
  };
}

/**
 * Decisions through the deployment's chat completions, as on OpenAI: single-token labels with
 * `logprobs` (a connection with `logprobs: false`, or a deployment that answers 400 naming
 * `logprobs`, gets a JSON-schema probability map instead).
 */
export function createAzureOpenAiDecisionModel(connection: AdapterConnection, settings: AzureOpenAiSettings, dependencies: ProviderAdapterDependencies): DecisionModel {
  const caller = azureOpenAiCaller(connection, settings, dependencies);
  const logprobs = connection.logprobs !== false;
  return {
    passthrough: [],
    logprobs,
    async decide(request, target, context) {
      const deployment = azureDeploymentOf(settings, target);
      const call = { transport: dependencies.transport, connection, url: caller.url("/chat/completions", deployment), headers: await caller.headers(context), model: deployment };
      if (!logprobs) return runTranslatedDecision({ request, target, context, asker: createOpenAiStatedAsker(call) });
      try {
        return await runTranslatedDecision({ request, target, context, asker: createOpenAiLabelAsker(call) });
      } catch (error) {
        if (!(GatewayError.isInstance(error) && error.code === "invalid_request" && /logprobs/i.test(error.message))) throw error;
        return runTranslatedDecision({ request, target, context, asker: createOpenAiStatedAsker(call) });
      }
    },
  };
}
