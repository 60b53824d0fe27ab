import type { JsonObject } from "@gateway/contracts";
import { GatewayError } from "@gateway/errors";
import { type ProviderTarget, callChatModel, chatModelOf, createStreamRenderer, responsesFormat } from "@gateway/provider-adapters";
import { modelRouter } from "../call/call-router.js";
import type { InferenceEndpoint } from "../call/inference-endpoint.js";
import type { ResponseStore } from "../runtime/response-store.js";
import { estimateChatAdmission } from "../stages/estimate-chat-admission.js";
import { applyAnswerGuardrails } from "../stages/apply-answer-guardrails.js";
import { toInputItemResource } from "./input-item-resource.js";
import { type ResponsesBody, parseResponsesBody } from "./parse-responses-body.js";

/** How long a stored response is kept when the gateway sets no retention (OpenAI keeps them 30 days). */
export const defaultResponseRetentionMs = 30 * 24 * 60 * 60 * 1000;

/** Options of {@link createResponsesEndpoint}. */
export interface ResponsesEndpointOptions {
  /** Where stored responses live; null: `store` and `previous_response_id` are refused (`unsupported_feature`). */
  store: ResponseStore | null;
  /** How long a stored response is kept (default 30 days). */
  retentionMs?: number;
  /** Clock (tests). */
  now?: () => number;
}

/** What the endpoint knows of one call's conversation: its state of the call, returned by `prepare`. */
export interface ConversationState {
  /** The caller's `previous_response_id`, or null. */
  previousResponseId: string | null;
  /** Whether the answer is stored (and reported `store: true`). */
  store: boolean;
  /** The caller's input as items (a string input is one user message). */
  inputItems: JsonObject[];
  /** The conversation the previous response left, or []. */
  previousConversation: JsonObject[];
}

/**
 * `POST /v1/responses`: the OpenAI Responses API on any provider (native for OpenAI connections
 * that serve it, translated to chat completions or Anthropic messages otherwise), with the
 * gateway's own conversation state:
 *
 * - `store` defaults to the project's content-capture setting. In a project that captures content
 *   an answer is stored (as OpenAI does by default) unless the request says `store: false`; in a
 *   project that does not, nothing is stored, `store: true` is refused (400
 *   `unsupported_feature`, param `store`) and answers report `store: false`.
 * - `previous_response_id` continues a stored response of the same project (one indexed read;
 *   an unknown, expired or deleted id, or another project's, is OpenAI's 400
 *   `previous_response_not_found`, param `previous_response_id`): the upstream receives the earlier turns'
 *   items followed by the new input (`instructions` are not carried over, as in OpenAI's API).
 *   Upstreams are always called with `store: false`, so no provider keeps the conversation.
 * - A stored answer is written before its last byte reaches the caller (the JSON body; a stream's
 *   terminal event), so the caller's next request finds it on any instance.
 *
 * Admission estimates the whole input (earlier turns included) and caps output by
 * `max_output_tokens`. Output guardrails check output text and function-call arguments. Errors
 * use the gateway body; a native provider's own error passes through.
 */
export function createResponsesEndpoint(options: ResponsesEndpointOptions): InferenceEndpoint<ResponsesBody, ProviderTarget, ConversationState> {
  const { store } = options;
  const retentionMs = options.retentionMs ?? defaultResponseRetentionMs;
  const now = options.now ?? Date.now;

  return {
    name: "responses",
    router: modelRouter("responses"),
    errorFormat: "gateway",
    capturesContent: true,
    guardrailFormat: "openai_responses",
    parse: parseResponsesBody,
    model: (request) => request.model,

    async prepare({ request, identity }) {
      const captures = identity.project.captureContent;
      if (request.store === true && !captures) {
        throw new GatewayError("unsupported_feature", {
          param: "store",
          message: "This project does not capture content, so the gateway does not store responses: send 'store': false or leave it out.",
        });
      }
      if (request.store === true && store === null) {
        throw new GatewayError("unsupported_feature", { param: "store", message: "This gateway does not store responses." });
      }
      const previousResponseId = typeof request.previous_response_id === "string" ? request.previous_response_id : null;
      let previousConversation: JsonObject[] = [];
      if (previousResponseId !== null) {
        // A project that does not capture content has nothing stored to continue (what it stored before is being deleted).
        const found = store === null || !captures ? null : await store.get({ projectId: identity.project.id, id: previousResponseId });
        if (found === null) {
          // OpenAI's answer: 400 `previous_response_not_found` (an `invalid_request_error`).
          throw new GatewayError("previous_response_not_found", {
            param: "previous_response_id",
            message: `Previous response with id '${previousResponseId.slice(0, 200)}' not found.`,
          });
        }
        previousConversation = found.conversation;
      }
      const inputItems = inputItemsOf(request.input);
      // Copied without the two fields rather than spread and then `delete`d (deleting turns the
      // copy into a dictionary-mode object); fromEntries defines own fields, so a `__proto__`
      // field stays a field.
      const upstream: JsonObject = Object.fromEntries(Object.entries(request).filter(([key]) => key !== "previous_response_id" && key !== "store"));
      if (previousConversation.length > 0) upstream.input = [...previousConversation.map(itemForUpstream).filter((item) => item !== null), ...inputItems];
      else if (upstream.input === undefined || upstream.input === null) upstream.input = inputItems;
      return {
        request: upstream as ResponsesBody,
        state: { previousResponseId, store: store !== null && (request.store ?? captures) === true, inputItems, previousConversation },
      };
    },

    // The prepared body: a continued conversation's stored turns are counted with the new input.
    admission: ({ snapshot, identity, plan, request }) =>
      estimateChatAdmission({
        snapshot,
        identity,
        plan,
        body: request,
        maxOutputTokens: typeof request.max_output_tokens === "number" && Number.isInteger(request.max_output_tokens) && request.max_output_tokens > 0 ? request.max_output_tokens : null,
      }),

    async invoke({ adapter, request, state, target, context }) {
      const answer = await callChatModel(chatModelOf(adapter, target), "openai-responses", request, target, context);
      if (answer.kind === "stream") return answer;
      const overrides = overridesOf(state);
      const body = answer.body as JsonObject;
      const changed = typeof body === "object" && body !== null && Object.entries(overrides).some(([key, value]) => body[key] !== value);
      return {
        kind: "json",
        status: answer.status,
        body: changed ? { ...body, ...overrides } : body,
        ...(changed || answer.bodyText === undefined ? {} : { bodyText: answer.bodyText }),
        ...(answer.headers === undefined ? {} : { headers: answer.headers }),
        usage: answer.usage,
      };
    },

    guardOutput: (body, guardrails) => applyAnswerGuardrails(guardrails, body, responsesFormat),

    streamRenderer: ({ format, request, state, target, requestId }) =>
      createStreamRenderer({
        from: format,
        to: "openai-responses",
        requestId,
        model: target.qualifiedModel,
        request,
        responseOverrides: overridesOf(state),
      }),

    async complete({ state, identity, answer }) {
      if (state === undefined || !state.store || store === null || typeof answer !== "object" || answer === null) return;
      const response = answer as JsonObject;
      if (typeof response.id !== "string" || (response.status !== "completed" && response.status !== "incomplete")) return;
      const createdAt = now();
      await store.put({
        id: response.id,
        organizationId: identity.organization.id,
        projectId: identity.project.id,
        apiKeyId: identity.apiKey.id,
        createdAt: new Date(createdAt),
        expiresAt: new Date(createdAt + retentionMs),
        response,
        inputItems: state.inputItems.map(toInputItemResource),
        conversation: [...state.previousConversation, ...state.inputItems, ...(Array.isArray(response.output) ? (response.output as JsonObject[]) : [])],
      });
    },
  };
}

/** The answer's `store` and `previous_response_id` as the gateway reports them (`prepare` always ran: its state is there). */
function overridesOf(state: ConversationState | undefined): JsonObject {
  return { store: state?.store ?? false, previous_response_id: state?.previousResponseId ?? null };
}

/** The caller's input as items: a string is one user message. */
function inputItemsOf(input: unknown): JsonObject[] {
  if (typeof input === "string") return [{ type: "message", role: "user", content: [{ type: "input_text", text: input }] }];
  return Array.isArray(input) ? (input as JsonObject[]) : [];
}

/**
 * A stored item as the upstream receives it again (upstreams are called with `store: false`, so
 * they hold no items to refer to): message and function-call ids are left out, and reasoning
 * items are sent only with their `encrypted_content` (without it the upstream cannot use them).
 */
function itemForUpstream(item: JsonObject): JsonObject | null {
  if (item.type === "reasoning") return typeof item.encrypted_content === "string" ? item : null;
  if ((item.type === "message" || item.type === "function_call" || item.type === "function_call_output") && typeof item.id === "string") {
    const { id: _id, ...rest } = item;
    return rest;
  }
  return item;
}
