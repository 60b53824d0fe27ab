import type { LookupFunction } from "node:net";
import type { ConnectionTimeouts } from "@gateway/contracts";
import { Pool } from "undici";
import { GatewayError } from "@gateway/errors";
import { callerAborted, onCallerAbort } from "./call-abort.js";
import type { ProviderCallContext } from "./provider-adapter.js";
import { createOutboundConnector } from "./outbound/create-outbound-connector.js";
import { type OutboundAddressPolicy, outboundAddressPolicyFromEnvironment } from "./outbound/outbound-address-policy.js";
import { OutboundAddressRefusedError } from "./outbound/outbound-address-refused-error.js";

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

  /**
   * Starts a streamed call, through `dispatch` with a handler like JSON calls (no Readable body,
   * async iterator over it, AbortController or parsed-header object per call): resolves at the
   * answer's headers with a body that the consumer pulls chunk by chunk. Backpressure: the
   * upstream socket is paused while more than {@link streamHighWaterBytes} wait unread, resumed
   * once they are read. One timer bounds the call at any time: until the headers, the request
   * deadline or the first-byte timeout (whichever is first); then the first-byte timeout until
   * the first body chunk is read; then the idle timeout, refreshed by every chunk read. A
   * second timer bounds the whole stream when a maximum duration is set.
   */
  function startStream(prepared: Prepared): Promise<HttpStreamResponse> {
    const { context, provider, remaining, target, headers, body, method, limits } = prepared;
    const startedAt = Date.now();
    const state: { reason: AbortReason | null; limitMs: number } = { reason: null, limitMs: 0 };
    let abortRequest: ((error: Error) => void) | null = null;
    let resumeRequest: (() => void) | null = null;
    let pendingAbort: Error | null = null;
    // The answer's headers: settled once (resolved with the response, or rejected).
    let answered: { resolve(response: HttpStreamResponse): void; reject(error: unknown): void } | null = null;
    // The body: chunks received and not read yet, the end, a failure, and a reader waiting.
    const unread: Buffer[] = [];
    let unreadBytes = 0;
    let paused = false;
    let complete = false;
    let failure: GatewayError | null = null;
    let reader: { resolve(result: IteratorResult<Uint8Array>): void; reject(error: unknown): void } | null = null;
    let readAny = false;
    let released = false;
    // The consumer stopped reading (early return or `cancel`).
    let stopped = false;

    const abortWith = (error: Error) => {
      if (abortRequest !== null) abortRequest(error);
      // Still queued for a connection: undici drops it unsent when its turn comes.
      else pendingAbort ??= error;
    };
    const abortFor = (reason: AbortReason, limitMs: number) => {
      if (state.reason !== null || complete || failure !== null) return;
      state.reason = reason;
      state.limitMs = limitMs;
      const error = reason === "client" ? cancelledError(provider) : timeoutError(reason, provider, limitMs);
      abortWith(error);
      // Before a connection was given, undici calls no handler method: fail the call here.
      if (abortRequest === null) fail(error);
    };
    const unsubscribe = onCallerAbort(context, () => abortFor("client", 0));
    const beforeHeaders: [AbortReason, number] = remaining < limits.firstByteMs ? ["deadline", remaining] : ["first-byte", limits.firstByteMs];
    let timer = setTimeout(() => abortFor(beforeHeaders[0], limits.firstByteMs), beforeHeaders[1]);
    const durationTimer = limits.maxDurationMs > 0 ? setTimeout(() => abortFor("duration", limits.maxDurationMs), limits.maxDurationMs) : undefined;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      clearTimeout(durationTimer);
      unsubscribe();
    };
    const fail = (error: unknown) => {
      if (complete || failure !== null || stopped) return;
      failure = mapTransportError(error, state, provider);
      release();
      if (answered !== null) {
        const waiting = answered;
        answered = null;
        waiting.reject(failure);
      }
      if (reader !== null) {
        const waiting = reader;
        reader = null;
        waiting.reject(failure);
      }
    };

    /** The next unread chunk (the timers and backpressure follow what is read). */
    const take = (): Buffer => {
      const chunk = unread.shift()!;
      unreadBytes -= chunk.length;
      if (paused && unreadBytes <= streamLowWaterBytes) {
        paused = false;
        resumeRequest?.();
      }
      // Once released (the answer is complete), no timer may start again: it would hold the call for its duration.
      if (released) return chunk;
      if (!readAny) {
        readAny = true;
        // The first body bytes: from now on, silence is bounded by the idle timeout.
        clearTimeout(timer);
        timer = setTimeout(() => abortFor("idle", limits.idleMs), limits.idleMs);
      } else timer.refresh();
      return chunk;
    };
    const stop = () => {
      if (stopped) return;
      stopped = true;
      // Early exit (consumer stopped): abort so the socket is closed, not left half-read.
      if (!complete && failure === null) {
        state.reason ??= "client";
        abortWith(cancelledError(provider));
      }
      unread.length = 0;
      unreadBytes = 0;
      release();
    };

    const chunks: AsyncIterableIterator<Uint8Array> = {
      [Symbol.asyncIterator]() {
        return this;
      },
      next() {
        if (stopped) return Promise.resolve({ done: true, value: undefined });
        if (unread.length > 0) return Promise.resolve({ done: false, value: take() });
        if (failure !== null) return Promise.reject(failure);
        if (complete) return Promise.resolve({ done: true, value: undefined });
        return new Promise<IteratorResult<Uint8Array>>((resolve, reject) => {
          reader = { resolve, reject };
        });
      },
      return() {
        stop();
        return Promise.resolve({ done: true, value: undefined });
      },
    };

    const handler = {
      onConnect(abortDispatch: (error: Error) => void) {
        if (pendingAbort !== null) abortDispatch(pendingAbort);
        else abortRequest = abortDispatch;
      },
      onHeaders(statusCode: number, rawHeaders: (Buffer | string)[], resume: () => void) {
        if (statusCode < 200) return true; // 1xx: informational, the answer follows
        resumeRequest = resume;
        // Headers arrived: the request deadline no longer applies, the first-byte timeout still does.
        clearTimeout(timer);
        const left = Math.max(0, startedAt + limits.firstByteMs - Date.now());
        timer = setTimeout(() => abortFor("first-byte", limits.firstByteMs), left);
        const waiting = answered;
        answered = null;
        waiting?.resolve({
          status: statusCode,
          headers: parseRawHeaders(rawHeaders),
          body: chunks,
          async readJson() {
            const parts: Buffer[] = [];
            for (let next = await chunks.next(); next.done !== true; next = await chunks.next()) parts.push(next.value as Buffer);
            const text = Buffer.concat(parts).toString("utf8");
            return { body: parseJson(text), text };
          },
          cancel() {
            stop();
          },
        });
        return true;
      },
      onData(chunk: Buffer) {
        if (failure !== null || stopped) return false;
        unread.push(chunk);
        unreadBytes += chunk.length;
        if (reader !== null) {
          const waiting = reader;
          reader = null;
          waiting.resolve({ done: false, value: take() });
          return true;
        }
        if (unreadBytes > streamHighWaterBytes) {
          paused = true;
          return false;
        }
        return true;
      },
      onComplete() {
        if (failure !== null) return;
        // The whole answer is here: no limit can apply any more, and the caller's abort has nothing to close.
        complete = true;
        release();
        if (reader !== null) {
          const waiting = reader;
          reader = null;
          waiting.resolve({ done: true, value: undefined });
        }
      },
      onError(error: Error) {
        fail(error);
      },
    };
    return new Promise<HttpStreamResponse>((resolve, reject) => {
      answered = { resolve, reject };
      try {
        poolFor(target.origin, limits.connectMs).dispatch({ path: target.path, method, headers, body }, handler);
      } catch (error) {
        fail(error);
      }
    });
  }

  /** A JSON call (see `requestJson`). */
  function sendJson(prepared: Prepared): Promise<HttpJsonResponse> {
    const { context, provider, remaining, target, headers, body, method, limits } = prepared;
    // The request deadline or the call's total timeout, whichever comes first.
    const [timeoutReason, timeoutMs]: [AbortReason, number] = remaining <= limits.totalMs ? ["deadline", remaining] : ["total", limits.totalMs];
    return new Promise<HttpJsonResponse>((resolve, reject) => {
      const state: { reason: AbortReason | null; limitMs: number } = { reason: null, limitMs: timeoutMs };
      let abortRequest: ((error: Error) => void) | null = null;
      let pendingAbort: Error | null = null;
      let settled = false;
      let status = 0;
      let responseHeaders: Record<string, string> = {};
      const chunks: Buffer[] = [];
      let size = 0;
      const abort = (error: Error) => {
        if (abortRequest !== null) {
          abortRequest(error);
          return;
        }
        // Still queued for a connection: fail now; undici drops it unsent when its turn comes.
        pendingAbort ??= error;
        settle(() => reject(error));
      };
      const unsubscribe = onCallerAbort(context, () => {
        state.reason ??= "client";
        abort(cancelledError(provider));
      });
      const timer = setTimeout(() => {
        state.reason ??= timeoutReason;
        abort(timeoutError(timeoutReason, provider, timeoutMs));
      }, timeoutMs);
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        unsubscribe();
        outcome();
      };
      const handler = {
        onConnect(abortDispatch: (error: Error) => void) {
          if (pendingAbort !== null) abortDispatch(pendingAbort);
          else abortRequest = abortDispatch;
        },
        onHeaders(statusCode: number, rawHeaders: (Buffer | string)[]) {
          if (statusCode < 200) return true; // 1xx: informational, the answer follows
          status = statusCode;
          responseHeaders = parseRawHeaders(rawHeaders);
          return true;
        },
        onData(chunk: Buffer) {
          size += chunk.length;
          if (size > settings.maxJsonBodyBytes) {
            abort(
              new GatewayError("upstream_error", {
                message: `The answer of '${provider}' is larger than the gateway accepts.`,
                retryable: false, details: { provider },
              }),
            );
            return false;
          }
          chunks.push(chunk);
          return true;
        },
        onComplete() {
          settle(() => {
            const text = Buffer.concat(chunks, size).toString("utf8");
            resolve({ status, headers: responseHeaders, body: parseJson(text), text });
          });
        },
        onError(error: Error) {
          settle(() => reject(mapTransportError(error, state, provider)));
        },
      };
      try {
        poolFor(target.origin, limits.connectMs).dispatch({ path: target.path, method, headers, body }, handler);
      } catch (error) {
        settle(() => reject(mapTransportError(error, state, provider)));
      }
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
    // Both through `dispatch` with a handler rather than `request()`: no Readable body, async
    // iterator or AbortController per call (about 13 us of CPU per JSON call in a micro-benchmark
    // against the mock provider), the same timeouts, abort and error mapping.
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

/** Unread stream bytes above which the upstream socket is paused (as a Readable's default buffer). */
const streamHighWaterBytes = 64 * 1024;
/** Unread stream bytes at or below which a paused upstream socket is resumed. */
const streamLowWaterBytes = 16 * 1024;

const unreachableCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);
const resetCodes = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED", "ECONNABORTED", "UND_ERR_RES_CONTENT_LENGTH_MISMATCH"]);
const timeoutCodes = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);

/** Why the transport aborted a call itself: the caller left, or one of its limits passed. */
type AbortReason = "client" | "deadline" | "total" | "first-byte" | "idle" | "duration";

/**
 * Maps a network-level failure to a GatewayError. `abort.reason` says whether the gateway
 * aborted the request itself (the caller left, or a limit of `abort.limitMs` passed).
 */
function mapTransportError(error: unknown, abort: { reason: AbortReason | null; limitMs: number }, provider: string): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  const refused = OutboundAddressRefusedError.find(error);
  if (refused !== null) {
    return new GatewayError("upstream_error", {
      message: `The connection '${provider}' is refused by the outbound address policy: ${refused.reason}`,
      retryable: false,
      details: { provider, rule: `outbound_address_${refused.refusal.rule}`, address_kind: refused.refusal.category },
      cause: refused,
    });
  }
  if (abort.reason === "client") return cancelledError(provider, error);
  if (abort.reason !== null) return timeoutError(abort.reason, provider, abort.limitMs, error);
  const code = errorCode(error);
  if (code !== undefined && timeoutCodes.has(code)) {
    return new GatewayError("upstream_timeout", {
      message: `The provider '${provider}' did not answer in time.`,
      retryable: true, details: { provider },
      cause: error,
    });
  }
  if (code !== undefined && unreachableCodes.has(code)) {
    return new GatewayError("service_unavailable", {
      message: `Could not connect to the provider '${provider}'.`,
      retryable: true, details: { provider },
      cause: error,
    });
  }
  if (code !== undefined && resetCodes.has(code)) {
    return new GatewayError("upstream_error", {
      message: `The connection to the provider '${provider}' was closed unexpectedly.`,
      retryable: true, details: { provider },
      cause: error,
    });
  }
  return new GatewayError("upstream_error", {
    message: `The request to the provider '${provider}' failed.`,
    retryable: true, details: { provider },
    cause: error,
  });
}

function cancelledError(provider: string, cause?: unknown): GatewayError {
  return new GatewayError("client_cancelled", { retryable: false, details: { provider }, cause });
}

/**
 * 504 `upstream_timeout` for a limit that passed. Retryable (another attempt or target may
 * answer in time) unless the request deadline itself passed or the stream had already started
 * flowing to the caller (idle, duration).
 */
function timeoutError(reason: Exclude<AbortReason, "client">, provider: string, limitMs: number, cause?: unknown): GatewayError {
  const messages: Record<typeof reason, string> = {
    deadline: `The provider '${provider}' did not answer before the request deadline.`,
    total: `The provider '${provider}' did not answer within ${limitMs} ms.`,
    "first-byte": `The provider '${provider}' did not start streaming within ${limitMs} ms.`,
    idle: `The provider '${provider}' stream went silent for ${limitMs} ms.`,
    duration: `The provider '${provider}' stream exceeded its maximum duration of ${limitMs} ms.`,
  };
  return new GatewayError("upstream_timeout", {
    message: messages[reason],
    retryable: reason === "total" || reason === "first-byte",
    details: { provider },
    cause,
  });
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (timeoutCodes.has(code) || unreachableCodes.has(code) || resetCodes.has(code))) {
      return code;
    }
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      current = errors[0];
      continue;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Raw response headers (name, value, name, value... as latin1 bytes) as lowercase names; repeated ones joined with ", ". */
function parseRawHeaders(rawHeaders: (Buffer | string)[]): Record<string, string> {
  const result: Record<string, string> = {};
  const text = (value: Buffer | string) => (typeof value === "string" ? value : value.toString("latin1"));
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = text(rawHeaders[index]!).toLowerCase();
    if (name === "__proto__") continue;
    const value = text(rawHeaders[index + 1]!);
    result[name] = Object.hasOwn(result, name) ? `${result[name]}, ${value}` : value;
  }
  return result;
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
