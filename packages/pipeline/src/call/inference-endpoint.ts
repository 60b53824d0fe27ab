import type { NormalizedUsage, UsageEndpoint } from "@gateway/contracts";
import type { CompiledGuardrails } from "@gateway/policy-engine";
import type {
  CallAbort,
  ForwardableHeaders,
  ProviderCallContext,
  ProviderTarget,
  RequestFormat,
  StreamFormat,
  StreamFrame,
  StreamRenderer,
} from "@gateway/provider-adapters";
import type { CompiledSnapshot } from "../runtime/compile-snapshot.js";
import type { CallerIdentity } from "../stages/authenticate.js";
import type { CallTarget } from "../stages/call-target.js";
import type { RoutePlan } from "../stages/resolve-route.js";
import type { CallRouter, EndpointAdapter } from "./call-router.js";
import type { ErrorFormat } from "./render-error-response.js";

/** What admission is told before a call is made; see {@link InferenceEndpoint.admission}. */
export interface AdmissionEstimate {
  /** Upper bound of the cost in micro-USD (reserved on hard budgets). */
  estimatedCostMicros: number;
  /** Upper bound of the tokens (counted by token rate limits until settlement). */
  estimatedTokens: number;
  /** Decisions cannot cap their output: refused under any hard budget (424). */
  isDecision?: boolean;
}

/** One provider call's answer as an endpoint shapes it. */
export type EndpointAnswer =
  | {
      kind: "json";
      status: number;
      body: unknown;
      /** The provider's own bytes of `body`, sent as they are unless an output guardrail changes the body. */
      bodyText?: string;
      headers?: Record<string, string>;
      /** What the call consumed; null when nothing is billed (a token count). */
      usage: NormalizedUsage | null;
    }
  | {
      kind: "stream";
      status: number;
      headers?: Record<string, string>;
      /** The upstream's wire format. */
      format: StreamFormat | null;
      frames: AsyncIterable<StreamFrame>;
    };

/** What {@link InferenceEndpoint.invoke} gets for one attempt on one target. */
export interface EndpointInvocation<Request, Target extends CallTarget = ProviderTarget, State = unknown> {
  /** What the router calls `target` through: its provider adapter, or null for a target that is no provider connection (an MCP server). */
  adapter: EndpointAdapter<Target>;
  request: Request;
  /** What {@link InferenceEndpoint.prepare} returned for this call (undefined without `prepare`). */
  state: State | undefined;
  target: Target;
  context: ProviderCallContext;
  /** The caller's headers (Anthropic-compatible endpoints forward `anthropic-version` / `anthropic-beta`). */
  headers: ForwardableHeaders;
}

/** What {@link InferenceEndpoint.prepare} gets. */
export interface EndpointPrepareInput<Request> {
  request: Request;
  identity: CallerIdentity;
  /** The call's abort (its `signal` is made on first read, for an API that takes one). */
  abort: CallAbort;
}

/** What {@link InferenceEndpoint.prepare} returns: the request as the provider gets it, and the endpoint's own state of the call. */
export interface PreparedRequest<Request, State> {
  request: Request;
  /** Handed to `invoke`, `streamRenderer` and `complete` of the same call. */
  state: State;
}

/**
 * An inference endpoint as a small spec: how its body is validated, estimated for admission,
 * sent to a provider and shaped for the caller. `runInferenceCall` owns everything else (the
 * call's lifetime and deadline, authentication, routing with retries and fallbacks, input and
 * output guardrails, admission, settlement, the usage event and error rendering), so a new
 * endpoint costs one spec. Where its calls go is its `router`: models through the routes
 * (`modelRouter`), or something else with its own target type (an MCP tool call goes to the
 * server that has the tool). What the endpoint learns of one call (the Responses API's stored
 * conversation) is the state its `prepare` returns, handed to its later hooks.
 */
export interface InferenceEndpoint<Request, Target extends CallTarget = ProviderTarget, State = unknown> {
  /** The usage event's endpoint. */
  readonly name: UsageEndpoint;
  /** Where the call goes: `modelRouter(servedEndpoint)` for model calls. */
  readonly router: CallRouter<Request, Target>;
  /** The error body of this endpoint's answers. */
  readonly errorFormat: ErrorFormat;
  /** Accept the key as `x-api-key: gak_...` as well as `Authorization: Bearer` (Anthropic-compatible endpoints). */
  readonly allowApiKeyHeader?: boolean;
  /** The project may capture this endpoint's content (decisions: never). */
  readonly capturesContent: boolean;
  /** How input guardrails read the request, or null when the endpoint sends no text to check. */
  readonly guardrailFormat: RequestFormat | null;
  /** Validates the body (throws 400 `invalid_request` naming the field). */
  parse(body: unknown): Request;
  /**
   * Optional, asynchronous: completes the request after the input guardrails and before
   * admission (the Responses API loads the conversation a `previous_response_id` continues, so
   * that admission estimates the whole input), and returns the endpoint's state of the call.
   * Throws to refuse the call.
   */
  prepare?(input: EndpointPrepareInput<Request>): Promise<PreparedRequest<Request, State>>;
  /** The model the request names: a provider-qualified model or an alias (the usage event's `requestedModel`). */
  model(request: Request): string;
  /**
   * What to reserve and count before the call, or null when the call is not admitted at all
   * (a token count costs nothing).
   */
  admission(input: { snapshot: CompiledSnapshot; identity: CallerIdentity; plan: RoutePlan<Target>; request: Request; bodyBytes?: number }): AdmissionEstimate | null;
  /** One attempt on one target. */
  invoke(invocation: EndpointInvocation<Request, Target, State>): Promise<EndpointAnswer>;
  /** Output guardrails over a JSON answer (throws 403 to block); absent: the answer has no output text. */
  guardOutput?(body: unknown, guardrails: CompiledGuardrails): { body: unknown; flags: string[] };
  /** The caller's renderer of a stream from an upstream in `format`; required when `invoke` can stream. */
  streamRenderer?(input: { format: StreamFormat | null; request: Request; state: State | undefined; target: Target; requestId: string }): StreamRenderer;
  /**
   * Optional, asynchronous: runs once the answer completed and before its last byte reaches the
   * caller (a JSON body after the output guardrails; a stream's `result()` before its terminal
   * event), so that what it records is visible to the caller's next request on any instance
   * (stored Responses). Its failure is reported to `onInternalError` and never fails an answer
   * that was already produced.
   */
  complete?(input: { request: Request; state: State | undefined; identity: CallerIdentity; answer: unknown }): Promise<void>;
}
