import type { LookupFunction } from "node:net";
import type { ConnectionTimeouts } from "@gateway/contracts";
import { Pool } from "undici";
import { GatewayError } from "@gateway/errors";
import { callerAborted } from "./call-abort.js";
import type { ProviderCallContext } from "./provider-adapter.js";
import { createOutboundConnector } from "./outbound/create-outbound-connector.js";
import { type OutboundAddressPolicy, outboundAddressPolicyFromEnvironment } from "./outbound/outbound-address-policy.js";
import { JsonCallHandler } from "./transport/json-call-handler.js";
import { cancelledError, timeoutError } from "./transport/map-transport-error.js";
import { StreamCallHandler } from "./transport/stream-call-handler.js";

/**
 * Settings of {@link createHttpTransport}; every field has a documented default. The timeouts
 * are the global defaults; a request's `timeouts` (its connection's) override them.
 */
export interface HttpTransportOptions {
  /** TCP/TLS connect timeout per attempt (default 10 000 ms). */
  connectTimeoutMs?: number;
  /** JSON calls: the whole upstream call, headers and body (default 300 000 ms). */
  totalTimeoutMs?: number;
  /** Streams: from sending the request until the first body bytes (default 300 000 ms: reasoning models think first). */
  firstByteTimeoutMs?: number;
  /** Streams: the longest silence between body bytes once the stream flows (default 120 000 ms). */
  idleTimeoutMs?: number;
  /** Streams: the longest a whole stream may last; 0 (the default) means no limit. */
  maxStreamDurationMs?: number;
  /** How long an idle keep-alive socket is kept (default 30 000 ms). */
  keepAliveTimeoutMs?: number;
  /** Maximum sockets per origin (default 128). */
  connections?: number;
  /** Largest JSON body read by `requestJson` (default 32 MiB); larger answers fail with 502. */
  maxJsonBodyBytes?: number;
  /**
   * Which addresses a connection may reach, checked on the resolved address of every new socket
   * (default: from `GATEWAY_OUTBOUND_PRIVATE_ADDRESSES`). A refused one fails the call with 502
   * `upstream_error` before anything is sent.
   */
  outboundAddresses?: OutboundAddressPolicy;
  /** The resolver of upstream host names (tests inject one); default `dns.lookup`. */
  lookup?: LookupFunction;
}

/** One upstream request. */
export interface HttpRequestOptions {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Serialised as JSON (`content-type: application/json` is set). */
  body?: unknown;
  context: ProviderCallContext;
  /** Connection name, used in error messages (never the URL, which may hold secrets). */
  provider?: string;
  /** The connection's own timeouts; absent fields take the transport's settings. */
  timeouts?: ConnectionTimeouts;
}

/** A fully read upstream answer. `body` is the parsed JSON, or `undefined` when the body is not JSON. */
export interface HttpJsonResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** The raw body text. */
  text: string;
}

/** An upstream answer whose body is read incrementally. */
export interface HttpStreamResponse {
  status: number;
  headers: Record<string, string>;
  /**
   * The body chunks, pulled with backpressure (never buffered whole). Errors are
   * GatewayErrors (the first-byte, idle and duration timeouts, caller abort, connection
   * reset). Stopping iteration early aborts the upstream request and closes its socket.
   */
  body: AsyncIterable<Uint8Array>;
  /** Reads the rest of the body as JSON (`undefined` when not JSON); for error answers. */
  readJson(): Promise<{ body: unknown; text: string }>;
  /** Aborts the upstream request (closes the socket) without reading further. */
  cancel(): void;
}

/** Pooled HTTP client for provider calls (one undici Pool per origin, keep-alive). */
export interface HttpTransport {
  /** Sends a request and reads the whole (JSON) answer, whatever its status. */
  requestJson(options: HttpRequestOptions): Promise<HttpJsonResponse>;
  /** Sends a request and returns once the headers arrived; the body streams. */
  requestStream(options: HttpRequestOptions): Promise<HttpStreamResponse>;
  /** Closes every pool (waits for in-flight requests). */
  close(): Promise<void>;
}

const defaults = {
  connectTimeoutMs: 10_000,
  totalTimeoutMs: 300_000,
  firstByteTimeoutMs: 300_000,
  idleTimeoutMs: 120_000,
  maxStreamDurationMs: 0,
  keepAliveTimeoutMs: 30_000,
  connections: 128,
  maxJsonBodyBytes: 32 * 1024 * 1024,
};

/**
 * Creates the pooled HTTP transport used by provider adapters. Every call honours the caller's
 * `signal` (aborts at once and closes the socket; 499 `client_cancelled`) and, until its answer
 * starts, the request `deadline` (504 `upstream_timeout`, not retryable: no time is left).
 * JSON calls are bounded as a whole by the total timeout. Streams are never cut by a total
 * deadline: they are bounded by the first-byte timeout until the first body bytes, then by the
 * idle timeout between bytes, and by the maximum duration when one is set; so a healthy long
 * stream (a reasoning model's output) completes, and a silent one ends with 504. Network
 * failures become GatewayErrors with a `retryable` hint; non-2xx answers are returned, not thrown.
 */
export function createHttpTransport(options: HttpTransportOptions = {}): HttpTransport {
  const settings = { ...defaults, ...stripUndefined(options) };
  const outboundAddresses = options.outboundAddresses ?? outboundAddressPolicyFromEnvironment();
  const pools = new Map<string, Pool>();

  // Parsed upstream URLs by their text: a connection calls the same few URLs all the time, and
  // WHATWG URL parsing is one of the larger per-call costs here. Bounded; invalid URLs are not kept.
  const targets = new Map<string, { origin: string; path: string }>();
  function targetOf(text: string, provider: string): { origin: string; path: string } {
    let target = targets.get(text);
    if (target === undefined) {
      let url: URL;
      try {
        url = new URL(text);
      } catch (error) {
        throw new GatewayError("upstream_error", {
          message: `The connection '${provider}' has an invalid base URL.`,
          retryable: false, details: { provider },
          cause: error,
        });
      }
      if (targets.size >= 1_000) targets.clear();
      target = { origin: url.origin, path: `${url.pathname}${url.search}` };
      targets.set(text, target);
    }
    return target;
  }

  /** One pool per origin and connect timeout (undici sets the connect timeout per pool). */
  function poolFor(origin: string, connectTimeoutMs: number): Pool {
    const key = connectTimeoutMs === settings.connectTimeoutMs ? origin : `${connectTimeoutMs} ${origin}`;
    let pool = pools.get(key);
    if (pool === undefined) {
      pool = new Pool(origin, {
        connections: settings.connections,
        // Each new socket checks the address it connects to against the outbound address policy.
        connect: createOutboundConnector({ policy: outboundAddresses, timeoutMs: connectTimeoutMs, ...(options.lookup ? { lookup: options.lookup } : {}) }),
        // Every call is bounded by this transport's own timers (total for JSON; first byte, idle
        // and duration for streams), which know which limit applies; undici's are off.
        headersTimeout: 0,
        bodyTimeout: 0,
        keepAliveTimeout: settings.keepAliveTimeoutMs,
      });
      pools.set(key, pool);
    }
    return pool;
  }

  /**
   * What both kinds of call check and build before anything is sent: throws 499 when the caller
   * is gone, 504 when no time is left, 502 for an invalid URL; serialises the JSON body.
   */
  function prepare(request: HttpRequestOptions) {
    const { context } = request;
    const provider = request.provider ?? "provider";
    if (callerAborted(context)) throw cancelledError(provider);
    const remaining = context.deadline - Date.now();
    if (remaining <= 0) throw timeoutError("deadline", provider, 0);
    const target = targetOf(request.url, provider);
    // Object.assign, not a spread: a spread copy that gains a key (`content-type` below) gets a
    // new hidden class on every call on V8 (Node 20).
    const headers: Record<string, string> = Object.assign({}, request.headers, context.extraHeaders);
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers["content-type"] ??= "application/json";
    }
    const method = request.method ?? (body === undefined ? "GET" : "POST");
    const timeouts = request.timeouts ?? {};
    const limits = {
      connectMs: timeouts.connectMs ?? settings.connectTimeoutMs,
      totalMs: timeouts.totalMs ?? settings.totalTimeoutMs,
      firstByteMs: timeouts.firstByteMs ?? settings.firstByteTimeoutMs,
      idleMs: timeouts.idleMs ?? settings.idleTimeoutMs,
      maxDurationMs: timeouts.maxDurationMs ?? settings.maxStreamDurationMs,
    };
    return { context, provider, remaining, target, headers, body, method, limits };
  }
  type Prepared = ReturnType<typeof prepare>;

  /** Hands `handler` to the origin's pool; what `dispatch` itself throws fails the call. */
  function dispatch(prepared: Prepared, handler: JsonCallHandler | StreamCallHandler): void {
    const { target, headers, body, method, limits } = prepared;
    try {
      poolFor(target.origin, limits.connectMs).dispatch({ path: target.path, method, headers, body }, handler);
    } catch (error) {
      handler.dispatchFailed(error);
    }
  }

  /** A streamed call (see `requestStream` and {@link StreamCallHandler}). */
  function startStream(prepared: Prepared): Promise<HttpStreamResponse> {
    const { context, provider, remaining, limits } = prepared;
    return new Promise<HttpStreamResponse>((resolve, reject) => {
      dispatch(prepared, new StreamCallHandler({ context, provider, limits, remainingMs: remaining, resolve, reject }));
    });
  }

  /** A JSON call (see `requestJson` and {@link JsonCallHandler}), bounded by the request deadline or the total timeout, whichever comes first. */
  function sendJson(prepared: Prepared): Promise<HttpJsonResponse> {
    const { context, provider, remaining, limits } = prepared;
    const timeout = remaining <= limits.totalMs ? { reason: "deadline" as const, ms: remaining } : { reason: "total" as const, ms: limits.totalMs };
    return new Promise<HttpJsonResponse>((resolve, reject) => {
      dispatch(prepared, new JsonCallHandler({ context, provider, timeout, maxBodyBytes: settings.maxJsonBodyBytes, resolve, reject }));
    });
  }

  /** Runs `call` with the prepared request, or rejects with what preparing threw: the calls never throw synchronously. */
  function withPrepared<Result>(request: HttpRequestOptions, call: (prepared: Prepared) => Promise<Result>): Promise<Result> {
    let prepared: Prepared;
    try {
      prepared = prepare(request);
    } catch (error) {
      return Promise.reject(error);
    }
    return call(prepared);
  }

  return {
    // Both through `dispatch` with a handler on undici's controller API rather than `request()`:
    // no Readable body, async iterator or AbortController per call (about 13 us of CPU per JSON
    // call in a micro-benchmark against the mock provider), the same timeouts, abort and errors.
    requestJson(request) {
      return withPrepared(request, sendJson);
    },

    requestStream(request) {
      return withPrepared(request, startStream);
    },

    async close() {
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(all.map((pool) => pool.close()));
    },
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
