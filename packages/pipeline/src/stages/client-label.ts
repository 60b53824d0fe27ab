/**
 * The `X-Gateway-Client` grammar: a name of 1 to 64 ASCII letters, digits, spaces, dots,
 * underscores or hyphens starting with a letter or digit, then an optional `/version` that
 * starts with a digit and has up to 32 letters, digits, dots, underscores, plus signs or
 * hyphens (97 characters at most in all).
 */
const clientLabelPattern = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}(?:\/[0-9][A-Za-z0-9._+-]{0,31})?$/;

/** Whether a value is a valid `X-Gateway-Client` label. */
export function isValidClientLabel(value: string): boolean {
  return value.length <= 97 && clientLabelPattern.test(value);
}

/** Well-known SDK user agents (`OpenAI/JS 6.1.0`) and the label each becomes. */
const knownSdkAgents: { pattern: RegExp; name: string }[] = [
  { pattern: /^OpenAI\/JS ([0-9][A-Za-z0-9._+-]{0,31})/, name: "openai-node" },
  { pattern: /^OpenAI\/Python ([0-9][A-Za-z0-9._+-]{0,31})/, name: "openai-python" },
  { pattern: /^Anthropic\/JS ([0-9][A-Za-z0-9._+-]{0,31})/, name: "anthropic-node" },
  { pattern: /^Anthropic\/Python ([0-9][A-Za-z0-9._+-]{0,31})/, name: "anthropic-python" },
];

/**
 * Derives a client label from a User-Agent: known SDKs get their package name
 * (`OpenAI/JS 6.1.0` -> `openai-node/6.1.0`), otherwise the first product token when it fits
 * the label grammar (`curl/8.5.0`). Browsers (`Mozilla/...`) and anything else give null.
 */
export function detectClientLabel(userAgent: string | undefined): string | null {
  if (userAgent === undefined || userAgent === "") return null;
  for (const agent of knownSdkAgents) {
    const match = agent.pattern.exec(userAgent);
    if (match) return `${agent.name}/${match[1]}`;
  }
  const firstProduct = userAgent.split(" ", 1)[0] ?? "";
  if (firstProduct.startsWith("Mozilla/")) return null;
  return isValidClientLabel(firstProduct) ? firstProduct : null;
}

/**
 * The client label of a request: a valid `X-Gateway-Client` wins; an invalid one is ignored
 * (as if absent) and the User-Agent is used instead.
 */
export function resolveClientLabel(headerValue: string | undefined, userAgent: string | undefined): string | null {
  if (headerValue !== undefined && isValidClientLabel(headerValue)) return headerValue;
  return detectClientLabel(userAgent);
}

/** The version part of a client label (`cli/1.4.2` -> `1.4.2`), or null without one. */
export function clientVersionOf(label: string | null): string | null {
  if (label === null) return null;
  const slash = label.indexOf("/");
  return slash === -1 ? null : label.slice(slash + 1);
}
