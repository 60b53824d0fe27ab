import type { Admission, BudgetThresholdCrossing } from "@gateway/budget";
import type { NormalizedUsage, UsageAttempt, UsageEventRecord } from "@gateway/contracts";
import { GatewayError, ProviderPassthroughError, normalizeError } from "@gateway/errors";
import { type CompiledGuardrails, guardrailsForCaller } from "@gateway/policy-engine";
import { type CallAbort, type ProviderCallContext, type StreamRenderer, emptyUsage } from "@gateway/provider-adapters";
import type { CompiledSnapshot } from "../runtime/compile-snapshot.js";
import { admitCall, describeBudgetOutcome } from "../stages/admit-call.js";
import { applyCallerGuardrails } from "../stages/apply-caller-guardrails.js";
import { type CallerIdentity, authenticate } from "../stages/authenticate.js";
import { buildUsageEvent } from "../stages/build-usage-event.js";
import { callProvider } from "../stages/call-provider.js";
import type { CallTarget } from "../stages/call-target.js";
import { charactersPerToken } from "../stages/estimate-chat-admission.js";
import { type RequestContext, createRequestContext } from "../stages/request-context.js";
import type { RoutePlan } from "../stages/resolve-route.js";
import { callCostMicros, settleCall } from "../stages/settle-call.js";
import { type CallLifetime, createCallLifetime } from "./call-lifetime.js";
import type { InferenceCallObservation } from "./inference-call-observer.js";
import type { EndpointAnswer, InferenceEndpoint } from "./inference-endpoint.js";
import type { PipelineDependencies } from "./pipeline-dependencies.js";
import type { PipelineCallResponse } from "./pipeline-response.js";
import { type StreamOutcome, relayStream } from "./relay-stream.js";
import { renderErrorResponse } from "./render-error-response.js";
import type { InferenceCallInput } from "./run-inference-call.js";

/** How a call ended, for its settlement, usage event and observer. */
interface CallEnd {
  status: number;
  error: GatewayError | null;
  timeToFirstByteMs: number | null;
  content: unknown;
  /** When the answer started (null: failed before), and whether it streamed. */
  answeredAt: number | null;
  streamed: boolean;
}

/**
 * One inference call as its named stages (`begin`, `live`, `authenticate`, `parse`, `route`,
 * `guard`, `admit`, `attempt`, `answer`, or `fail`), which `runInferenceCall` composes. Each stage takes
 * what it needs and returns what the next one needs; each also writes what it learnt into the
 * call's record (the fields below), which is all that settlement and the usage event read, so
 * a call that fails at any stage is billed and recorded with what it got to. A class: one
 * hidden class and no closures per call.
 */
export class InferenceCall<Request, Target extends CallTarget, State> {
  context: RequestContext | null = null;
  lifetime: CallLifetime | null = null;
  identity: CallerIdentity | null = null;
  captureContent = false;
  requestedModel: string | null = null;
  plan: RoutePlan<Target> | null = null;
  guardrailFlags: string[] = [];
  /** The caller's output guardrails, when any rule checks output (null: nothing to check). */
  outputGuardrails: CompiledGuardrails | null = null;
  /** The request as the provider gets it (after guardrails and `prepare`), and the endpoint's state of the call. */
  request: Request | null = null;
  state: State | undefined = undefined;
  admission: Admission | null = null;
  /** The target of the current (at the end: the last) attempt, and what it consumed. */
  target: Target | null = null;
  usage: NormalizedUsage | null = null;
  /** Each provider attempt, in order (for the usage event). */
  readonly attempts: UsageAttempt[] = [];
  readonly startedAt: number;
  readonly observation: InferenceCallObservation | undefined;

  constructor(
    readonly dependencies: PipelineDependencies,
    readonly input: InferenceCallInput,
    readonly endpoint: InferenceEndpoint<Request, Target, State>,
  ) {
    this.startedAt = input.startedAt ?? Date.now();
    this.observation = dependencies.observer?.callStarted({ requestId: input.requestId, endpoint: endpoint.name, startedAt: this.startedAt, headers: input.headers });
  }

  /** The request context: id, trace id, client label, session ids, deadline. */
  begin(): RequestContext {
    const context = createRequestContext({
      requestId: this.input.requestId,
      headers: this.input.headers,
      endpoint: this.endpoint.name,
      timeoutMs: this.dependencies.requestTimeoutMs,
      startedAt: this.startedAt,
    });
    this.context = context;
    return context;
  }

  /** The call's lifetime: the caller's abort, and the request deadline until the answer starts. */
  live(context: RequestContext): CallLifetime {
    const lifetime = createCallLifetime({ deadline: context.deadline, abort: this.input.abort });
    this.lifetime = lifetime;
    return lifetime;
  }

  /** Authenticate: the request's key (Bearer, or `x-api-key` where the endpoint allows it), or the identity the input found. */
  authenticate(snapshot: CompiledSnapshot): CallerIdentity {
    const { input, endpoint } = this;
    const identity = input.identity ? input.identity(snapshot) : authenticate(input.headers, snapshot, { allowApiKeyHeader: endpoint.allowApiKeyHeader === true });
    this.identity = identity;
    this.observation?.authenticated?.(identity);
    this.captureContent = endpoint.capturesContent && identity.project.captureContent;
    return identity;
  }

  /** Parse: the body read (after authentication) and validated. */
  async parse(): Promise<Request> {
    return this.endpoint.parse(await this.input.readBody());
  }

  /** Route: the model (or name) the request asks for, and the targets the endpoint's router orders for it. */
  async route(snapshot: CompiledSnapshot, context: RequestContext, identity: CallerIdentity, request: Request): Promise<RoutePlan<Target>> {
    const model = this.endpoint.model(request);
    this.requestedModel = model;
    const plan = await this.endpoint.router.route({ dependencies: this.dependencies, snapshot, identity, context, request, model });
    this.plan = plan;
    return plan;
  }

  /** Guard: the input guardrails over the request (which they may redact); the output guardrails are kept for the answer. */
  guard(snapshot: CompiledSnapshot, identity: CallerIdentity, request: Request): Request {
    const format = this.endpoint.guardrailFormat;
    if (format === null) return request;
    const guardrails = guardrailsForCaller({ index: snapshot.access, organizationId: identity.organization.id, projectId: identity.project.id, apiKeyId: identity.apiKey.id });
    const guarded = applyCallerGuardrails({ snapshot, identity, body: request, format, guardrails });
    this.guardrailFlags = guarded.flags;
    if (guardrails.hasOutputRules) this.outputGuardrails = guardrails;
    return guarded.body;
  }

  /**
   * Admit: the endpoint's `prepare` (the request as the provider gets it, and the endpoint's
   * state of the call), then its estimate reserved and counted (rate limits, budgets).
   */
  async admit(snapshot: CompiledSnapshot, context: RequestContext, identity: CallerIdentity, plan: RoutePlan<Target>, abort: CallAbort, guarded: Request): Promise<Request> {
    const { endpoint } = this;
    let request = guarded;
    if (endpoint.prepare !== undefined) {
      const prepared = await endpoint.prepare({ request, identity, abort });
      request = prepared.request;
      this.state = prepared.state;
    }
    this.request = request;
    const bodyBytes = this.input.bodyBytes;
    const estimate = endpoint.admission(bodyBytes === undefined ? { snapshot, identity, plan, request } : { snapshot, identity, plan, request, bodyBytes });
    if (estimate !== null) {
      this.admission = await admitCall({
        admission: this.dependencies.admission,
        snapshot,
        identity,
        estimatedCostMicros: estimate.estimatedCostMicros,
        estimatedTokens: estimate.estimatedTokens,
        isDecision: estimate.isDecision === true,
        leaseMs: context.deadline - Date.now() + 60_000,
      });
    }
    return request;
  }

  /** Attempt: the plan's targets with the route's retries and fallbacks, one `endpoint.invoke` per attempt. */
  async attempt(context: RequestContext, abort: CallAbort, plan: RoutePlan<Target>, request: Request): Promise<EndpointAnswer> {
    const { dependencies, endpoint } = this;
    const { router } = endpoint;
    const outcome = await callProvider<EndpointAnswer, Target>({
      plan,
      scope: { abort, deadline: context.deadline },
      affinityStore: dependencies.affinityStore,
      latencyTracker: router.recordsLatency ? dependencies.latencyTracker : undefined,
      observation: this.observation,
      attempts: this.attempts,
      statusOf: answerStatus,
      onAttempt: (target) => {
        this.target = target;
        this.usage = null;
      },
      call: async (target, _attempt, extraHeaders) => {
        const providerContext = new AttemptContext(context.requestId, abort, context.deadline);
        if (extraHeaders !== undefined) providerContext.extraHeaders = extraHeaders;
        const answer = await endpoint.invoke({
          adapter: router.adapterFor(target, dependencies),
          request,
          state: this.state,
          target,
          context: providerContext,
          headers: this.input.headers,
        });
        if (answer.kind === "json") this.usage = answer.usage;
        return answer;
      },
    });
    this.target = outcome.target;
    return outcome.result;
  }

  /**
   * Answer: a JSON answer through the output guardrails and `endpoint.complete`, settled and
   * recorded; a stream relayed part by part (guardrails, usage), settled and recorded when it ends.
   */
  async answer(lifetime: CallLifetime, answer: EndpointAnswer): Promise<PipelineCallResponse> {
    const { endpoint, input } = this;
    // Not a spread plus a key: that shape would be a new hidden class per call on V8.
    const headers: Record<string, string> = Object.assign({}, answer.headers);
    headers["x-request-id"] = input.requestId;
    if (answer.kind === "json") {
      let body = answer.body;
      // The provider's bytes go out unchanged unless an output guardrail may rewrite the body.
      let bodyText = answer.bodyText;
      if (this.outputGuardrails !== null && endpoint.guardOutput !== undefined) {
        const checked = endpoint.guardOutput(body, this.outputGuardrails);
        body = checked.body;
        bodyText = undefined;
        this.addGuardrailFlags(checked.flags);
      }
      if (endpoint.complete !== undefined && answer.status >= 200 && answer.status < 300) await this.complete(body);
      lifetime.dispose();
      const answeredAt = Date.now();
      this.finish({
        status: answer.status,
        error: null,
        timeToFirstByteMs: answeredAt - this.startedAt,
        content: this.captureContent ? { request: this.request, response: body } : null,
        answeredAt,
        streamed: false,
      });
      return bodyText === undefined ? { kind: "json", status: answer.status, headers, body } : { kind: "json", status: answer.status, headers, body, bodyText };
    }

    const target = this.target;
    if (endpoint.streamRenderer === undefined || target === null || this.request === null) {
      throw new GatewayError("internal_error", { message: `The ${endpoint.name} endpoint cannot stream.` });
    }
    // The answer has started: from here a stream is bounded by its upstream timeouts, not by the deadline.
    lifetime.streamStarted();
    const streamStartedAt = Date.now();
    const renderer = endpoint.streamRenderer({ format: answer.format, request: this.request, state: this.state, target, requestId: input.requestId });
    const events = relayStream({
      frames: answer.frames,
      renderer,
      ...(endpoint.complete === undefined || renderer.result === undefined ? {} : { beforeCompletion: () => this.completeStream(renderer) }),
      guardrails: this.outputGuardrails,
      captureText: this.captureContent,
      lifetime,
      onEnd: (ended) => this.streamEnded(ended, answer.status, streamStartedAt),
    });
    return { kind: "stream", status: answer.status, headers, events };
  }

  /** Any failure before the answer: rendered in the endpoint's error body (or thrown, `throwErrors`), settled and recorded. */
  fail(thrown: unknown): PipelineCallResponse {
    const { lifetime, input } = this;
    lifetime?.dispose();
    let error = normalizeError(thrown);
    const abortCode = lifetime?.abortCode() ?? null;
    if (abortCode !== null && error.code !== abortCode) error = new GatewayError(abortCode, { cause: thrown });
    else if (this.context !== null && Date.now() >= this.context.deadline && error.code !== "client_cancelled") {
      error = new GatewayError("request_timeout", { cause: thrown });
    }
    if (error.code === "internal_error") this.dependencies.onInternalError?.(thrown, input.requestId);
    const status = ProviderPassthroughError.isInstance(error) ? error.upstreamStatus : error.status;
    this.finish({ status, error, timeToFirstByteMs: null, content: null, answeredAt: null, streamed: false });
    if (input.throwErrors) throw error.code === "internal_error" ? new GatewayError("internal_error") : error;
    return { kind: "json", ...renderErrorResponse(error, { requestId: input.requestId, format: this.endpoint.errorFormat }) };
  }

  /** Runs the endpoint's `complete` step; a failure is reported, never thrown (the answer exists and is billed). */
  private async complete(answer: unknown): Promise<void> {
    const { identity, request } = this;
    if (this.endpoint.complete === undefined || identity === null || request === null) return;
    try {
      await this.endpoint.complete({ request, state: this.state, identity, answer });
    } catch (error) {
      this.dependencies.onInternalError?.(error, this.input.requestId);
    }
  }

  /** A stream's `complete` step: with what the renderer made of the stream (`result()`), when it made something. */
  private async completeStream(renderer: StreamRenderer): Promise<void> {
    let result: unknown;
    try {
      result = renderer.result?.();
    } catch (error) {
      this.dependencies.onInternalError?.(error, this.input.requestId);
      return;
    }
    if (result !== null && result !== undefined) await this.complete(result);
  }

  private streamEnded(ended: StreamOutcome, status: number, streamStartedAt: number): void {
    this.usage = streamUsage(ended, this.input.bodyBytes, this.request);
    this.addGuardrailFlags(ended.guardrailFlags);
    this.finish({
      answeredAt: streamStartedAt,
      streamed: true,
      status: ended.error === null ? status : ended.error.status,
      error: ended.error,
      timeToFirstByteMs: ended.firstEventAt === null ? null : ended.firstEventAt - this.startedAt,
      content: this.captureContent ? { request: this.request, response: { text: ended.text, ...(ended.truncated ? { truncated: true } : {}) } } : null,
    });
  }

  private addGuardrailFlags(flags: string[]): void {
    if (flags.length > 0) this.guardrailFlags = [...new Set([...this.guardrailFlags, ...flags])];
  }

  /**
   * Settles (or releases) the admission off the response path, then queues the usage event
   * (handed to `usage.record` first, synchronously, when the dependencies have it).
   */
  private finish(end: CallEnd): void {
    const { dependencies } = this;
    const endedAt = Date.now();
    const costMicros = callCostMicros(this.target, this.usage);
    // Recorded before the answer is written: only a threshold crossing (known after settling) changes it.
    const recorded = dependencies.usage.record === undefined ? null : this.usageEvent(end, endedAt, costMicros, noCrossings);
    if (recorded !== null) dependencies.usage.record!(recorded);
    void settleCall({ dependencies, admission: this.admission, target: this.target, usage: this.usage, costMicros }).then((settled) => {
      let event: UsageEventRecord;
      if (recorded !== null && settled.thresholdCrossings.length === 0) event = recorded;
      else {
        event = this.usageEvent(end, endedAt, costMicros, settled.thresholdCrossings);
        if (recorded !== null) {
          if (recorded.id !== undefined) event.id = recorded.id;
          dependencies.usage.record!(event);
        }
      }
      dependencies.usage.enqueue(event);
      if (this.observation === undefined) return;
      try {
        this.observation.callEnded({ event, error: end.error, streamed: end.streamed, answeredAt: end.answeredAt, endedAt, target: this.target });
      } catch (error) {
        // An observer's failure must not become an unhandled rejection; it is reported, never answered.
        dependencies.onInternalError?.(error, this.input.requestId);
      }
    });
  }

  private usageEvent(end: CallEnd, endedAt: number, costMicros: number, thresholdCrossings: readonly BudgetThresholdCrossing[]): UsageEventRecord {
    return buildUsageEvent({
      context: this.context,
      requestId: this.input.requestId,
      endpoint: this.endpoint.name,
      startedAt: this.startedAt,
      endedAt,
      identity: this.identity,
      requestedModel: this.requestedModel,
      route: this.plan?.route ?? null,
      target: this.target,
      status: end.status,
      errorCode: end.error?.code ?? null,
      usage: this.usage,
      costMicros,
      budgetOutcome: describeBudgetOutcome({ admission: this.admission, error: end.error ?? undefined, thresholdCrossings }),
      timeToFirstByteMs: end.timeToFirstByteMs,
      guardrailFlags: this.guardrailFlags,
      content: this.captureContent ? end.content : null,
      attempts: this.attempts,
      answeredAt: end.answeredAt,
      error: end.error,
    });
  }
}

const noCrossings: readonly BudgetThresholdCrossing[] = [];

/** The status of an endpoint's answer (the attempt's upstream status as the endpoint reports it). */
function answerStatus(answer: EndpointAnswer): number {
  return answer.status;
}

/** The provider context of one attempt (a class: the optional `extraHeaders` keep one hidden class). */
class AttemptContext implements ProviderCallContext {
  extraHeaders?: Record<string, string>;

  constructor(
    readonly requestId: string,
    readonly abort: CallAbort,
    readonly deadline: number,
  ) {}
}

/**
 * The usage of a stream: the provider's numbers once it completed; before that (the caller
 * left, a failure mid-stream) never less than what was produced (characters / 4) and, when the
 * provider had not reported input yet, the request's estimate, so a disconnect is never free.
 */
function streamUsage(ended: StreamOutcome, bodyBytes: number | undefined, request: unknown): NormalizedUsage {
  const reported = ended.usage ?? emptyUsage();
  if (ended.completed) return reported;
  const reportedInput = reported.inputTokens + reported.cacheReadTokens + reported.cacheWriteTokens;
  return {
    ...reported,
    inputTokens: reportedInput === 0 ? estimatedInputTokens(bodyBytes, request) : reported.inputTokens,
    outputTokens: Math.max(reported.outputTokens, Math.ceil(ended.outputCharacters / charactersPerToken)),
  };
}

function estimatedInputTokens(bodyBytes: number | undefined, request: unknown): number {
  if (request === null) return 0;
  const characters = bodyBytes !== undefined && Number.isFinite(bodyBytes) && bodyBytes >= 0 ? bodyBytes : JSON.stringify(request).length;
  return Math.ceil(characters / charactersPerToken);
}
