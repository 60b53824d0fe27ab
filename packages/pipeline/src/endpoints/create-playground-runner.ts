import { GatewayError } from "@gateway/errors";
import { type SseEvent, callAbortFollowing } from "@gateway/provider-adapters";
import type { InferenceEndpoint } from "../call/inference-endpoint.js";
import type { PipelineDependencies } from "../call/pipeline-dependencies.js";
import { runInferenceCall } from "../call/run-inference-call.js";
import { identityForApiKeyId } from "../stages/authenticate.js";
import type { RequestHeaders } from "../stages/request-headers.js";
import { chatCompletionsEndpoint } from "./chat-endpoints.js";
import type { ChatBody } from "./parse-chat-body.js";

/** Chat completions, recorded as the playground's. */
const playgroundEndpoint: InferenceEndpoint<ChatBody> = { ...chatCompletionsEndpoint, name: "playground" };

/** Input of a playground chat: one chat as the key `apiKeyId`, on behalf of `userId`. */
export interface PlaygroundChatInput {
  requestId: string;
  /** The organization the dashboard user acts in; the key must belong to it. */
  organizationId: string;
  apiKeyId: string;
  userId: string;
  /** An OpenAI chat-completions body (`model`, `messages`, `stream`, ...). */
  body: Record<string, unknown>;
  /** The dashboard request's headers (X-Request-ID, X-Provider, X-Gateway-Session, ...); never used to authenticate. */
  headers: RequestHeaders;
  /** Aborted when the browser goes away. */
  signal: AbortSignal;
}

/** A playground answer: the chat completion, or its event stream (in-stream errors as `data: {"error":...}`). */
export type PlaygroundResult =
  | { kind: "json"; status: number; headers: Record<string, string>; body: unknown }
  | { kind: "stream"; status: number; headers: Record<string, string>; events: AsyncIterable<SseEvent> };

/** The dashboard's entry into the pipeline (structurally the dashboard's `PlaygroundRunner`). */
export interface PlaygroundRunner {
  chat(input: PlaygroundChatInput): Promise<PlaygroundResult>;
}

/**
 * Creates the playground runner: one chat through exactly the pipeline of
 * `POST /v1/chat/completions` (policies, guardrails, routing, limits, budgets, usage), as the
 * key found by id (`identityForApiKeyId`: expired or revoked keys are refused), with the
 * usage event recording the user and `endpoint: "playground"`. Failures before the answer are
 * thrown as `GatewayError`s (the dashboard renders its own error body); failures after a
 * stream started arrive inside it. A key not in the current snapshot (just created) triggers
 * one snapshot refresh before it is refused.
 */
export function createPlaygroundRunner(
  dependencies: PipelineDependencies,
  settings: { refreshSnapshot?: () => Promise<void> } = {},
): PlaygroundRunner {
  return {
    async chat(input) {
      if (settings.refreshSnapshot && !dependencies.snapshots.current().apiKeysById.has(input.apiKeyId)) {
        await settings.refreshSnapshot();
      }
      return runInferenceCall(
        dependencies,
        {
          requestId: input.requestId,
          headers: input.headers,
          readBody: async () => input.body,
          abort: callAbortFollowing(input.signal),
          throwErrors: true,
          identity: (snapshot) => {
            const identity = identityForApiKeyId(input.apiKeyId, snapshot, { userId: input.userId });
            if (identity.organization.id !== input.organizationId) throw new GatewayError("invalid_gateway_api_key");
            return identity;
          },
        },
        playgroundEndpoint,
      );
    },
  };
}
