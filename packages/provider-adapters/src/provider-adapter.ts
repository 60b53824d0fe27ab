import type { ConnectionKind, NormalizedUsage, SnapshotConnection } from "@gateway/contracts";
import type { DecisionRequest, DecisionResponse } from "./decision/decision-contract.js";
import type { CallAbort } from "./call-abort.js";
import type { ChatCompletion, ChatRequest } from "./chat-request.js";
import type { StreamFormat, StreamFrame } from "./stream/stream-part.js";

/** The kind of a provider connection (a folder of `src/providers/`; checked where connections enter). */
export type ProviderKind = ConnectionKind;

/**
 * What an adapter reads of a connection: the snapshot connection's identity and upstream
 * settings (the snapshot's own objects can be passed as they are; tests may leave the
 * optional settings out).
 */
export type AdapterConnection = Pick<SnapshotConnection, "id" | "name" | "kind" | "baseUrl" | "credential" | "headers"> &
  Partial<Pick<SnapshotConnection, "models" | "upstreamModelNames" | "enabled" | "logprobs" | "defaultMaxTokens" | "timeouts" | "responsesApi" | "modelEndpoints" | "settings">> & {
    /**
     * The base-URL rule of the connection's provider (see `resolveApiUrl`): stamped by
     * `createProviderAdapter` from the registry, so that code a provider imports never reads it.
     */
    baseUrlPathIsApiRoot?: boolean;
    /** Whether the upstream serves the Responses API, by its provider's rule: stamped by `createProviderAdapter` like `baseUrlPathIsApiRoot`. */
    servesResponsesApi?: boolean;
  };

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
      /**
       * The wire format the upstream streams (the frames' `source` events); null when the
       * upstream speaks no caller format (a neutral model's frames carry parts only, always
       * rendered by the caller format's encoder).
       */
      format: StreamFormat | null;
      /**
       * The upstream's events decoded into typed parts as they arrive (pulled with backpressure;
       * stopping early aborts the upstream request). Usage arrives as `usage` parts.
       */
      frames: AsyncIterable<StreamFrame>;
      headers?: Record<string, string>;
    };

/** Caller request headers an adapter may forward (lower-case names). */
export type ForwardableHeaders = Record<string, string | string[] | undefined>;

/** The result of a decision call. */
export interface DecisionResult {
  response: DecisionResponse;
  usage: NormalizedUsage;
  /** Response headers to add (e.g. `x-gateway-demo`). */
  headers?: Record<string, string>;
}

/** A JSON request body as the caller sent it (validated by its endpoint; fields the gateway reads are typed). */
export type RequestBody = Record<string, unknown> & { stream?: unknown; model?: unknown };

/** The chat wire formats: OpenAI chat completions, Anthropic messages, OpenAI Responses. */
export type ChatFormat = StreamFormat;

/**
 * How the gateway wrote a translated chat request (absent: the body is the caller's). The model
 * may change a translated body in place; its usage chunk is already asked for.
 */
export interface TranslatedChatCall {
  /** A translated `response_format`: the forced tool whose input is the answer's text (streams decode it as text). */
  jsonResponseTool?: string;
}

/**
 * What a neutral chat model answers: a chat completion, or a stream of typed parts (frames
 * without provider bytes, `format` null).
 */
export type ChatModelAnswer =
  | { kind: "json"; status: number; body: ChatCompletion; usage: NormalizedUsage; headers?: Record<string, string> }
  | { kind: "stream"; status: number; format: null; frames: AsyncIterable<StreamFrame>; headers?: Record<string, string> };

/** A model that answers chat: chat completions, messages and Responses callers alike. */
export interface ChatModel {
  /**
   * The formats whose requests this model sends upstream as the caller wrote them (only `model`
   * and the gateway's own fields changed) and whose answers are the provider's own bytes: the
   * fast path, no re-serialisation. Without {@link generate}, the first is the format translated
   * requests are sent in; empty for an upstream that speaks no caller format.
   */
  readonly passthrough: readonly ChatFormat[];
  /**
   * Whether a request in `format` passes through for this target; absent: every format in
   * {@link passthrough} does (OpenAI's Responses API serves only some models of some upstreams).
   */
  passesThrough?(format: ChatFormat, target: ProviderTarget): boolean;
  /** `max_tokens` of translated requests without an output cap, for upstreams that require one (Anthropic). */
  readonly maxTokensDefault?: number;
  /**
   * Sends a request in one of the passthrough formats (a streamed request answers with frames of
   * its format). A chat request is provider-neutral: a body and the wire format it is written
   * in; `headers` are the caller's (Anthropic's `anthropic-version` / `anthropic-beta` go with a
   * messages body the caller wrote); `translated` says the gateway wrote the body. Arguments, not
   * a request object: the passthrough path allocates nothing of its own. Absent on a model
   * without passthrough formats (it answers through {@link generate}).
   */
  send?(
    format: ChatFormat,
    body: RequestBody,
    target: ProviderTarget,
    context: ProviderCallContext,
    headers?: ForwardableHeaders,
    translated?: TranslatedChatCall,
  ): Promise<ProviderResult>;
  /**
   * Answers the provider-neutral request (a caller format it does not pass through, translated
   * by the caller's format module): how providers whose upstream speaks no caller format
   * (Bedrock Converse, Gemini) serve every chat endpoint with one translation. The request's
   * `model` is the upstream model name; usage is always reported (billing).
   */
  generate?(request: ChatRequest, target: ProviderTarget, context: ProviderCallContext): Promise<ChatModelAnswer>;
}

/** A model that answers embeddings. */
export interface EmbeddingModel {
  /** The embeddings formats passed through as they are (the only one there is). */
  readonly passthrough: readonly ["openai-embeddings"];
  /** An OpenAI embeddings body in, its answer out (never streamed). */
  embed(body: RequestBody, target: ProviderTarget, context: ProviderCallContext): Promise<ProviderResult>;
}

/** Counts a request's input tokens (upstream or locally). */
export interface TokenCounter {
  /** `anthropic-messages` when the upstream counts the caller's body itself; empty when the gateway counts. */
  readonly passthrough: readonly "anthropic-messages"[];
  /** An Anthropic `count_tokens` body and the caller's headers (forwarded where the upstream counts). */
  countTokens(body: RequestBody, target: ProviderTarget, context: ProviderCallContext, headers?: ForwardableHeaders): Promise<TokenCount>;
}

/** A model that answers decision requests (`/v1/systemone`). */
export interface DecisionModel {
  /** `systemone-decisions` when the upstream speaks the decision contract (the request passed on); empty when decisions are asked through chat calls. */
  readonly passthrough: readonly "systemone-decisions"[];
  /** Whether translated decisions use measured log-probabilities (false: stated probabilities). */
  readonly logprobs: boolean;
  /** Answers a (validated) decision request. */
  decide(request: DecisionRequest, target: ProviderTarget, context: ProviderCallContext): Promise<DecisionResult>;
}

/**
 * What one provider connection can do: one model per capability it has. A capability it lacks
 * is absent (an endpoint asking for it answers `unsupported_feature`).
 */
export interface ProviderAdapter {
  readonly kind: ProviderKind;
  readonly chat?: ChatModel | undefined;
  readonly embeddings?: EmbeddingModel | undefined;
  readonly tokenCounter?: TokenCounter | undefined;
  readonly decisions?: DecisionModel | undefined;
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
