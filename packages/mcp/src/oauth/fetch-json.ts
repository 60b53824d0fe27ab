/** One JSON exchange with an OAuth endpoint: never follows redirects; an unparsable body reads as null. */
export async function fetchJson(url: string, init: RequestInit & { timeoutMs: number }): Promise<{ status: number; body: unknown; headers: Headers }> {
  const { timeoutMs, ...request } = init;
  const response = await fetch(url, { ...request, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: response.status, body, headers: response.headers };
}
