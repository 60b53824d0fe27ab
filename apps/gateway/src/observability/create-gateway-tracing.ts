import { type Attributes, type Context, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, defaultTextMapGetter, defaultTextMapSetter, trace } from "@opentelemetry/api";
import { ExportResultCode, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { UsageEndpoint } from "@gateway/contracts";
import { type CallTarget, type DeliveryReport, type DeliveryTelemetryDestination, type InferenceCallObserver, usageEventAttributes } from "@gateway/pipeline";
import { toGenAiInputMessages, toGenAiOutputMessages } from "./gen-ai-messages.js";

/** Settings of {@link createGatewayTracing}. */
export interface GatewayTracingSettings {
  /** OTLP `service.name` (default `ai-gateway`). */
  serviceName?: string;
  /**
   * Send the trace context upstream (`traceparent`, `tracestate`): the attempt's span when the
   * call is traced, else the caller's own header as it came. Default false: providers are third parties.
   */
  propagateUpstream?: boolean;
  /** How often ended spans are exported, in ms (default 1000). */
  flushIntervalMs?: number;
  /** Timeout of one export request, in ms (default 5000). */
  exportTimeoutMs?: number;
  /** Most spans waiting per destination (default 10 000; more are dropped). */
  maxQueuedSpans?: number;
  /** Told about every finished export (for `last_delivery_*` and logs). */
  onReport?: (report: DeliveryReport) => void;
}

/** Traces of inference calls with the OpenTelemetry SDK, exported to each organization's OTLP destinations. */
export interface GatewayTracing {
  /** The call observer that makes the spans. */
  observer: InferenceCallObserver;
  /** The organizations' OTLP destinations changed (every reload of the delivery targets). */
  setDestinations(destinations: readonly DeliveryTelemetryDestination[]): void;
  /** Exports every span that has ended; resolves when the exports finished. */
  flush(): Promise<void>;
  /** Exports what is left and stops. */
  close(): Promise<void>;
}

const organizationAttribute = "gateway.organization_id";
const propagator = new W3CTraceContextPropagator();

/** The GenAI operation of an endpoint (`gen_ai.operation.name`). */
function operationOf(endpoint: UsageEndpoint | string): string {
  if (endpoint === "embeddings") return "embeddings";
  if (endpoint === "count_tokens") return "count_tokens";
  if (endpoint === "mcp") return "execute_tool";
  return "chat";
}

/**
 * `gen_ai.provider.name`: the well-known name of the connection's kind (an OpenAI-compatible
 * connection speaks `openai`); `mcp` for an MCP call's server (it has no provider kind).
 */
function providerNameOf(target: CallTarget): string {
  const kind = (target.connection as { kind?: unknown }).kind;
  return typeof kind === "string" ? kind : "mcp";
}

/** `server.address` and `server.port` of a connection's base URL (nothing when it has none). */
function serverAttributesOf(target: CallTarget): Attributes {
  const baseUrl = (target.connection as { baseUrl?: string | null }).baseUrl;
  if (baseUrl === null || baseUrl === undefined || baseUrl === "") return {};
  try {
    const url = new URL(baseUrl);
    return { "server.address": url.hostname, "server.port": Number(url.port || (url.protocol === "https:" ? 443 : 80)) };
  } catch {
    return {};
  }
}

/**
 * Creates the gateway's tracing: one SERVER span per inference call (`gateway.<endpoint>`, the
 * caller's W3C `traceparent` as its parent) and one CLIENT span per upstream attempt
 * (`<operation> <upstream model>`, GenAI semantic conventions), made with the OpenTelemetry SDK
 * only for calls of organizations that have an OTLP destination, and exported by OTLP/HTTP to
 * that organization's destinations alone (a batch processor per destination). Content
 * (`gen_ai.input.messages`, `gen_ai.output.messages`) only when the project captures it, which
 * decisions never do. The caller's sampling decision is honoured (`OTEL_TRACES_SAMPLER` may set
 * another). With no destination and no propagation, a call costs one set lookup.
 */
export function createGatewayTracing(settings: GatewayTracingSettings = {}): GatewayTracing {
  const propagateUpstream = settings.propagateUpstream ?? false;
  const destinationsByOrganization = new Map<string, { key: string; processor: SpanProcessor }[]>();
  const router: SpanProcessor = {
    onStart: () => undefined,
    onEnd(span: ReadableSpan) {
      const organizationId = span.attributes[organizationAttribute];
      if (typeof organizationId !== "string") return;
      for (const destination of destinationsByOrganization.get(organizationId) ?? []) destination.processor.onEnd(span);
    },
    forceFlush: () => Promise.all(allProcessors().map((processor) => processor.forceFlush())).then(() => undefined),
    shutdown: () => Promise.all(allProcessors().map((processor) => processor.shutdown())).then(() => undefined),
  };
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": settings.serviceName ?? "ai-gateway" }),
    spanProcessors: [router],
  });
  const tracer = provider.getTracer("@gateway/gateway");

  function allProcessors(): SpanProcessor[] {
    return [...destinationsByOrganization.values()].flatMap((list) => list.map((entry) => entry.processor));
  }

  function createProcessor(destination: DeliveryTelemetryDestination): SpanProcessor {
    const config = destination.config;
    if (config.kind !== "otlp_http") throw new Error("Only OTLP destinations take SDK spans.");
    const inner = new OTLPTraceExporter({ url: config.endpoint, headers: { ...config.headers }, timeoutMillis: settings.exportTimeoutMs ?? 5000 });
    const reporting: SpanExporter = {
      export(spans, done) {
        inner.export(spans, (result) => {
          settings.onReport?.({
            kind: "telemetry",
            targetId: destination.id,
            organizationId: destination.organizationId,
            delivered: result.code === ExportResultCode.SUCCESS,
            attempts: 1,
            items: spans.length,
            failure: result.code === ExportResultCode.SUCCESS ? null : (result.error?.message ?? "The export failed."),
          });
          done(result);
        });
      },
      shutdown: () => inner.shutdown(),
      forceFlush: () => inner.forceFlush(),
    };
    return new BatchSpanProcessor(reporting, {
      scheduledDelayMillis: settings.flushIntervalMs ?? 1000,
      exportTimeoutMillis: settings.exportTimeoutMs ?? 5000,
      maxQueueSize: settings.maxQueuedSpans ?? 10_000,
      maxExportBatchSize: 512,
    });
  }

  const observer: InferenceCallObserver = {
    callStarted(start) {
      if (destinationsByOrganization.size === 0 && !propagateUpstream) return undefined;
      let callSpan: Span | undefined;
      let callContext: Context | undefined;
      let organizationId: string | undefined;
      const attemptSpans = new Map<number, Span>();
      return {
        authenticated(identity) {
          if (!destinationsByOrganization.has(identity.organization.id)) return;
          organizationId = identity.organization.id;
          const parent = propagator.extract(ROOT_CONTEXT, start.headers, defaultTextMapGetter);
          callSpan = tracer.startSpan(
            `gateway.${start.endpoint}`,
            {
              kind: SpanKind.SERVER,
              startTime: start.startedAt,
              attributes: { [organizationAttribute]: organizationId, "gen_ai.operation.name": operationOf(start.endpoint), "gateway.request_id": start.requestId },
            },
            parent,
          );
          callContext = trace.setSpan(ROOT_CONTEXT, callSpan);
        },
        attemptStarted(attempt) {
          if (callSpan === undefined || callContext === undefined) {
            if (!propagateUpstream) return undefined;
            // Not traced here: the caller's own context goes on unchanged.
            const carrier: Record<string, string> = {};
            propagator.inject(propagator.extract(ROOT_CONTEXT, start.headers, defaultTextMapGetter), carrier, defaultTextMapSetter);
            return Object.keys(carrier).length > 0 ? carrier : undefined;
          }
          const span = tracer.startSpan(
            `${operationOf(start.endpoint)} ${attempt.target.upstreamModel}`,
            {
              kind: SpanKind.CLIENT,
              startTime: attempt.startedAt,
              attributes: {
                [organizationAttribute]: organizationId!,
                "gen_ai.operation.name": operationOf(start.endpoint),
                "gen_ai.provider.name": providerNameOf(attempt.target),
                "gen_ai.request.model": attempt.target.upstreamModel,
                "gateway.connection": attempt.target.connection.name,
                "gateway.model": attempt.target.qualifiedModel,
                "gateway.attempt": attempt.index + 1,
                "gateway.attempt_kind": attempt.kind,
                ...serverAttributesOf(attempt.target),
              },
            },
            callContext,
          );
          attemptSpans.set(attempt.index, span);
          if (!propagateUpstream) return undefined;
          const carrier: Record<string, string> = {};
          propagator.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, defaultTextMapSetter);
          return carrier;
        },
        attemptEnded(attempt) {
          if (attempt.error === null) return; // the answering attempt ends with the call (a stream runs until then)
          const span = attemptSpans.get(attempt.index);
          if (span === undefined) return;
          attemptSpans.delete(attempt.index);
          span.setAttribute("error.type", attempt.error.code);
          span.setStatus({ code: SpanStatusCode.ERROR, message: attempt.error.code });
          span.end(attempt.endedAt);
        },
        callEnded(end) {
          if (callSpan === undefined) return;
          const { event } = end;
          const endTime = event.occurredAt.getTime() + Math.max(0, event.latencyMs);
          const usage: Attributes = {
            "gen_ai.usage.input_tokens": event.inputTokens,
            "gen_ai.usage.output_tokens": event.outputTokens,
          };
          for (const span of attemptSpans.values()) {
            // The attempt that answered: its usage, and the end of its stream.
            span.setAttributes({ ...usage, ...(event.model === null ? {} : { "gen_ai.response.model": event.model }) });
            if (end.error !== null) {
              span.setAttribute("error.type", end.error.code);
              if (end.error.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: end.error.code });
            }
            span.end(end.streamed ? end.endedAt : (end.answeredAt ?? end.endedAt));
          }
          attemptSpans.clear();
          callSpan.setAttributes(usageEventAttributes(event));
          if (end.target !== null) callSpan.setAttribute("gen_ai.provider.name", providerNameOf(end.target));
          if (event.content !== null) {
            const content = event.content as { request?: unknown; response?: unknown };
            const input = toGenAiInputMessages(content.request, event.endpoint);
            const output = toGenAiOutputMessages(content.response);
            if (input !== null) callSpan.setAttribute("gen_ai.input.messages", input);
            if (output !== null) callSpan.setAttribute("gen_ai.output.messages", output);
          }
          if (end.error !== null && event.status >= 500) callSpan.setStatus({ code: SpanStatusCode.ERROR, message: end.error.code });
          callSpan.end(endTime);
        },
      };
    },
  };

  return {
    observer,
    setDestinations(destinations) {
      const wanted = new Map<string, DeliveryTelemetryDestination>();
      for (const destination of destinations) {
        if (destination.config.kind === "otlp_http") wanted.set(`${destination.id}\u0000${JSON.stringify(destination.config)}`, destination);
      }
      const kept = new Map<string, { key: string; processor: SpanProcessor }[]>();
      for (const list of destinationsByOrganization.values()) {
        for (const entry of list) {
          const destination = wanted.get(entry.key);
          if (destination === undefined) {
            // Removed or changed: what it still holds is exported before it goes.
            void entry.processor.shutdown().catch(() => undefined);
            continue;
          }
          wanted.delete(entry.key);
          kept.set(destination.organizationId, [...(kept.get(destination.organizationId) ?? []), entry]);
        }
      }
      for (const [key, destination] of wanted) {
        kept.set(destination.organizationId, [...(kept.get(destination.organizationId) ?? []), { key, processor: createProcessor(destination) }]);
      }
      destinationsByOrganization.clear();
      for (const [organizationId, list] of kept) destinationsByOrganization.set(organizationId, list);
    },
    flush: () => provider.forceFlush(),
    close: () => provider.shutdown(),
  };
}
