import type { ConnectionKind, NormalizedUsage, SnapshotConnection } from "@gateway/contracts";
import type { DecisionRequest, DecisionResponse } from "./decision/decision-contract.js";
import type { CallAbort } from "./call-abort.js";
import type { StreamFormat, StreamFrame } from "./stream/stream-part.js";

/** The kinds of provider connection the gateway can talk to. */
export type ProviderKind = ConnectionKind;

/**
 * What an adapter reads of a connection: the snapshot connection's identity and upstream
 * settings (the snapshot's own objects can be passed as they are; tests may leave the
 * optional settings out).
 */
export type AdapterConnection = Pick<SnapshotConnection, "id" | "name" | "kind" | "baseUrl" | "credential" | "headers"> &
  Partial<Pick<SnapshotConnection, "models" | "upstreamModelNames" | "enabled" | "logprobs" | "defaultMaxTokens" | "timeouts" | "responsesApi" | "modelEndpoints">>;

/** Per-call context: the gateway request id, the caller's abort and the deadline. */
export interface ProviderCallContext {
  requestId: string;
  /**
   * Aborted when the caller disconnects or the gateway deadline passes; aborts the upstream
   * request (socket closed). The call's one cancellation: code that needs an `AbortSignal`
   * (`fetch`, an SDK) reads `abort.signal`, which is created only then (see {@link CallAbort}).
   */
  abort: CallAbort;
  /** Epoch milliseconds after which the upstream call is abandoned with 504 `upstream_timeout`. */
  deadline: number;
  /** Headers the gateway adds to the upstream request (a W3C `traceparent` when trace propagation is on). */
  extraHeaders?: Record<string, string>;
}

/** Which connection to call and which model name to ask it for. */
export interface ProviderTarget {
  connection: AdapterConnection;
  /** The model name sent upstream (`<vendor>/<model>` or the connection's override). */
  upstreamModel: string;
  /** `<provider>/<vendor>/<model>` as the gateway knows it. */
  qualifiedModel: string;
}


/** The answer of a chat or messages call: a JSON body, or an SSE stream. */
export type ProviderResult =
  | {
      kind: "json";
      status: number;
      body: unknown;
      usage: NormalizedUsage;
      headers?: Record<string, string>;
      /**
       * The provider's own bytes of `body` when it is passed on unchanged (native answers):
       * the app may send them as they are instead of serialising `body` again.
       */
      bodyText?: string;
    }
  | {
      kind: "stream";
      status: number;
      /** The wire format the upstream streams (the frames' `source` events). */
      format: StreamFormat;
      /**
       * The upstream's events decoded into typed parts as they arrive (pulled with backpressure;
       * stopping early aborts the upstream request). Usage arrives as `usage` parts.
       */
      frames: AsyncIterable<StreamFrame>;
      headers?: Record<string, string>;
    };

/** How each operation is served by an adapter. */
export interface ProviderCapabilities {
  /** `native`: the upstream speaks the decision contract; `translated`: via chat calls. */
  decisions: "native" | "translated";
  /** Whether decisions use measured log-probabilities (false: stated probabilities). */
  logprobs: boolean;
  /** The adapter's native chat wire format. */
  chatFormat: "openai" | "anthropic";
  countTokens: "native" | "local";
  /** How `chatCompletions` is served (`unsupported`: it throws `unsupported_feature`). */
  chatCompletions: "native" | "translated" | "unsupported";
  /** How `messages` is served (`unsupported`: it throws `unsupported_feature`). */
  messages: "native" | "translated" | "unsupported";
  /**
   * How `responses` is served: `native` (the upstream's Responses API, for models that answer
   * it; others are translated), `translated` (to chat completions or Anthropic messages), or
   * `unsupported` (it throws `unsupported_feature`).
   */
  responses: "native" | "translated" | "unsupported";
  /** How `embeddings` is served (`unsupported`: it throws `unsupported_feature`). */
  embeddings: "native" | "unsupported";
}

/** Caller request headers an adapter may forward (lower-case names). */
export type ForwardableHeaders = Record<string, string | string[] | undefined>;

/** The result of a decision call. */
export interface DecisionResult {
  response: DecisionResponse;
  usage: NormalizedUsage;
  /** Response headers to add (e.g. `x-gateway-demo`). */
  headers?: Record<string, string>;
}

/** One provider connection, able to answer decisions, chat completions, messages, responses, embeddings and token counts. */
export interface ProviderAdapter {
  readonly kind: ProviderKind;
  readonly capabilities: ProviderCapabilities;
  /** Answers a (validated) decision request. */
  decide(request: DecisionRequest, target: ProviderTarget, context: ProviderCallContext): Promise<DecisionResult>;
  /** OpenAI chat completions format in and out. */
  chatCompletions(body: Record<string, unknown>, target: ProviderTarget, context: ProviderCallContext): Promise<ProviderResult>;
  /** Anthropic messages format in and out; `headers` are the caller's (for `anthropic-version`/`anthropic-beta`). */
  messages(
    body: Record<string, unknown>,
    target: ProviderTarget,
    context: ProviderCallContext,
    headers?: ForwardableHeaders,
  ): Promise<ProviderResult>;
  /**
   * OpenAI Responses format in and out. The body is what goes upstream: the gateway's
   * conversation state is already applied (no `previous_response_id`, no `store`: the input holds
   * the earlier turns). Native calls are sent with `store: false`; translated answers and streams
   * report `store: false` and `previous_response_id: null`, which the endpoint then sets.
   */
  responses(body: Record<string, unknown>, target: ProviderTarget, context: ProviderCallContext): Promise<ProviderResult>;
  /** OpenAI embeddings format in and out (never streamed). */
  embeddings(body: Record<string, unknown>, target: ProviderTarget, context: ProviderCallContext): Promise<ProviderResult>;
  /** Anthropic `count_tokens` format in; `local` says whether the count was computed by the gateway. */
  countTokens(
    body: Record<string, unknown>,
    target: ProviderTarget,
    context: ProviderCallContext,
    headers?: ForwardableHeaders,
  ): Promise<TokenCount>;
}

/** The answer of `countTokens`. */
export interface TokenCount {
  inputTokens: number;
  /** True when the gateway counted (no upstream call). */
  local: boolean;
  /** Local counts only: true when the model family's own tokenizer counted plain text exactly; false for an estimate. */
  exact?: boolean;
}

/** Usage with every count at zero. */
export function emptyUsage(): NormalizedUsage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
}

/** Sums usages field by field. */
export function addUsage(...usages: NormalizedUsage[]): NormalizedUsage {
  const total = emptyUsage();
  for (const usage of usages) {
    total.inputTokens += usage.inputTokens;
    total.outputTokens += usage.outputTokens;
    total.cacheReadTokens += usage.cacheReadTokens;
    total.cacheWriteTokens += usage.cacheWriteTokens;
    total.reasoningTokens += usage.reasoningTokens;
  }
  return total;
}
