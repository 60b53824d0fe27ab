import { OutboundAddressRefusedError, defaultOutboundFetch } from "@gateway/provider-adapters";

/** What a delivery attempt came to. */
export interface DeliveryOutcome {
  delivered: boolean;
  /** The far end's HTTP status, when it answered. */
  status: number | null;
  /** Why it was not delivered (no secrets). */
  failure: string | null;
  /** The far end's `Retry-After` in seconds (429/503 answers), when it sent one. */
  retryAfterSeconds?: number | null;
}

/** Options of {@link postJson}. */
export interface PostJsonOptions {
  url: string;
  /** The exact bytes to send (already serialized, so a signature can cover them). */
  body: string;
  headers?: Record<string, string>;
  timeoutMs: number;
  /** Default `ai-gateway/0.1`. */
  userAgent?: string;
  /**
   * Default: the outbound address policy's `fetch` (`defaultOutboundFetch`): every connection is
   * checked on the address it connects to, and redirects are not followed.
   */
  fetch?: typeof fetch | undefined;
}

/**
 * POSTs a JSON body and reports whether the far end accepted it (any 2xx within the
 * timeout). Refusals, non-2xx answers, connection errors, timeouts and addresses refused by the
 * outbound address policy are outcomes, not exceptions. Redirects are not followed.
 */
export async function postJson(options: PostJsonOptions): Promise<DeliveryOutcome> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await (options.fetch ?? defaultOutboundFetch())(options.url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": options.userAgent ?? "ai-gateway/0.1", ...options.headers },
      body: options.body,
      redirect: "manual",
      signal,
    });
    // Drain (bounded by the same timeout) so the connection can be reused.
    await response.arrayBuffer().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { delivered: true, status: response.status, failure: null };
    const retryAfter = Number(response.headers.get("retry-after"));
    return {
      delivered: false,
      status: response.status,
      failure: `The endpoint answered ${response.status}.`,
      retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    };
  } catch (error) {
    if (signal.aborted) return { delivered: false, status: null, failure: `No answer within ${options.timeoutMs} ms.` };
    const refused = OutboundAddressRefusedError.find(error);
    if (refused !== null) return { delivered: false, status: null, failure: `Refused by the outbound address policy: ${refused.reason}` };
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const code = typeof cause?.code === "string" ? cause.code : null;
    return { delivered: false, status: null, failure: code ? `Connection failed (${code}).` : "Connection failed." };
  }
}
