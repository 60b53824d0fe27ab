import { defaultOutboundFetch } from "@gateway/provider-adapters";

/**
 * One JSON exchange with an OAuth endpoint: never follows redirects; an unparsable body reads as
 * null. Goes through the outbound address policy's `fetch` unless another is given.
 */
export async function fetchJson(
  url: string,
  init: RequestInit & { timeoutMs: number; fetch?: typeof fetch | undefined },
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const { timeoutMs, fetch: fetchFunction, ...request } = init;
  const response = await (fetchFunction ?? defaultOutboundFetch())(url, { ...request, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: response.status, body, headers: response.headers };
}
