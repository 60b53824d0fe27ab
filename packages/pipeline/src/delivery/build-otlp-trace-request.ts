import { randomBytes } from "node:crypto";

/** One span to export. */
export interface ExportSpan {
  name: string;
  startTime: Date;
  endTime: Date;
  attributes: Record<string, string | number | boolean>;
  /** OTLP status: 1 = OK, 2 = ERROR. */
  statusCode?: 1 | 2;
  traceId?: string;
  spanId?: string;
}

/** A random OTLP trace id (32 lower-case hex characters). */
export function createTraceId(): string {
  return randomBytes(16).toString("hex");
}

/** A random OTLP span id (16 lower-case hex characters). */
export function createSpanId(): string {
  return randomBytes(8).toString("hex");
}

function toAnyValue(value: string | number | boolean): Record<string, unknown> {
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "number") return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  return { stringValue: value };
}

function nanos(date: Date): string {
  return `${BigInt(date.getTime()) * 1_000_000n}`;
}

/**
 * Builds an OTLP/HTTP JSON `ExportTraceServiceRequest` (POST to `<collector>/v1/traces` with
 * `Content-Type: application/json`). Ids are lower-case hex; times are unix nanoseconds as
 * strings, as the OTLP JSON mapping specifies.
 */
export function buildOtlpTraceRequest(options: {
  serviceName: string;
  spans: ExportSpan[];
  /** The instrumentation scope (default `@gateway/pipeline`). */
  scopeName?: string;
}): Record<string, unknown> {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: options.serviceName } }] },
        scopeSpans: [
          {
            scope: { name: options.scopeName ?? "@gateway/pipeline", version: "0.1.0" },
            spans: options.spans.map((span) => ({
              traceId: span.traceId ?? createTraceId(),
              spanId: span.spanId ?? createSpanId(),
              name: span.name,
              kind: 1,
              startTimeUnixNano: nanos(span.startTime),
              endTimeUnixNano: nanos(span.endTime),
              attributes: Object.entries(span.attributes).map(([key, value]) => ({ key, value: toAnyValue(value) })),
              status: { code: span.statusCode ?? 1 },
            })),
          },
        ],
      },
    ],
  };
}
