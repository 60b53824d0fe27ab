/** A small decision request on `model`. */
export function decisionBody(model: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model,
    state: "The customer asked for a refund twice.",
    questions: {
      escalate: { type: "noul", instructions: "Should this be escalated?" },
    },
    ...extra,
  };
}

/** Posts a decision request (JSON) and returns status, headers and parsed body. */
export async function postDecision(
  baseUrl: string,
  options: { body: unknown; apiKey?: string | null; headers?: Record<string, string> },
): Promise<{ status: number; headers: Headers; body: any; requestId: string }> {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.apiKey !== null && options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
  const response = await fetch(`${baseUrl}/v1/systemone`, {
    method: "POST",
    headers,
    body: typeof options.body === "string" ? options.body : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body, requestId: response.headers.get("x-request-id") ?? "" };
}
