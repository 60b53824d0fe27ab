/** What a redacted part of a text is replaced with. */
export const redactedMarker = "[redacted]";

/**
 * Length of the shortest run of a known secret that is redacted on its own: a provider that
 * echoes a credential without its prefix, masked in the middle, or cut short still gives away
 * every run of this many characters, so each is removed. Shorter runs are too common in ordinary
 * text to be told apart from words.
 */
export const secretEchoMinimumLength = 10;

/** Secrets shorter than this are only redacted where they appear whole. */
const shortestRedactedSecret = 4;

/**
 * Shapes of provider and gateway keys (and bearer tokens) redacted even when the secret itself is
 * not known: OpenAI `sk-…` (`sk-proj-…`, `sk-ant-…` of Anthropic), Groq `gsk_…`, Google `AIza…`,
 * xAI `xai-…`, the gateway's own `gak_…` API keys and `gmt_…` MCP tokens. A masked echo
 * (`sk-abc***xyz`) matches too.
 */
const keyShapes = /\b(?:sk-|gsk_|xai-|gak_|gmt_|AIza)[A-Za-z0-9_*.~+/=-]{6,}|\b([Bb]earer)\s+[A-Za-z0-9_*.~+/=-]{6,}/g;

/**
 * Removes secrets from a text that is about to leave the gateway (an error message, a log line, a
 * relayed provider error): every whole occurrence of one of `secrets`, every run of at least
 * {@link secretEchoMinimumLength} characters of one of them (a partial or masked echo), and every
 * string shaped like a provider or gateway key or a bearer token, whether or not it is known.
 * Linear in the text for each secret.
 */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  return redactKnownSecrets(text, secrets).replace(keyShapes, (match: string, scheme: string | undefined) => (scheme === undefined ? redactedMarker : `${scheme} ${redactedMarker}`));
}

/**
 * Removes only the given `secrets` from a text: every whole occurrence and every run of at least
 * {@link secretEchoMinimumLength} characters of one (a partial or masked echo), but not other
 * key shapes. For content relayed to a caller that may rightly hold key-like text (an MCP tool's
 * result: a file that documents `Bearer` tokens), where only the gateway's own credential must
 * never get through. Linear in the text for each secret.
 */
export function redactKnownSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  let redacted = text;
  for (const secret of secrets) {
    if (typeof secret !== "string" || secret.length < shortestRedactedSecret) continue;
    redacted = redactEchoes(redacted, secret);
  }
  return redacted;
}

/**
 * {@link redactSecrets} over every string of a JSON-like value (object keys included), for
 * payloads relayed as they are (a provider's error body, a stream's error event) and log fields.
 * Returns a copy of arrays and plain objects (other objects, such as dates, are kept as they are);
 * the value is walked at most `maximumDepth` levels deep (deeper values are replaced by the marker).
 */
export function redactSecretsInValue<Value>(value: Value, secrets: readonly (string | null | undefined)[] = [], maximumDepth = 64): Value {
  return redactStringsInValue(value, (text) => redactSecrets(text, secrets), maximumDepth);
}

/**
 * {@link redactKnownSecrets} over every string of a JSON-like value (object keys included), as
 * {@link redactSecretsInValue} walks it (values deeper than `maximumDepth` levels are replaced by
 * the marker). Returns the value itself when there is no secret to look for.
 */
export function redactKnownSecretsInValue<Value>(value: Value, secrets: readonly (string | null | undefined)[], maximumDepth = 256): Value {
  if (!secrets.some((secret) => typeof secret === "string" && secret.length >= shortestRedactedSecret)) return value;
  return redactStringsInValue(value, (text) => redactKnownSecrets(text, secrets), maximumDepth);
}

function redactStringsInValue<Value>(value: Value, redact: (text: string) => string, maximumDepth: number): Value {
  const walk = (current: unknown, depth: number): unknown => {
    if (typeof current === "string") return redact(current);
    if (typeof current !== "object" || current === null) return current;
    if (depth >= maximumDepth) return redactedMarker;
    if (Array.isArray(current)) return current.map((item) => walk(item, depth + 1));
    const prototype = Object.getPrototypeOf(current) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return current;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(current)) {
      Object.defineProperty(copy, redact(key), { value: walk(item, depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return copy;
  };
  return walk(value, 0) as Value;
}

/** Multiplier of the rolling hash over windows of {@link secretEchoMinimumLength} characters (the 32-bit FNV prime). */
const hashBase = 0x01000193;

/** `hashBase` to the power of the window length minus one (mod 2^32): what the character leaving a window contributed. */
const leavingFactor = (() => {
  let factor = 1;
  for (let index = 1; index < secretEchoMinimumLength; index += 1) factor = Math.imul(factor, hashBase);
  return factor;
})();

/** The rolling hash of the window of {@link secretEchoMinimumLength} characters starting at `start`. */
function windowHash(text: string, start: number): number {
  let hash = 0;
  for (let index = start; index < start + secretEchoMinimumLength; index += 1) hash = (Math.imul(hash, hashBase) + text.charCodeAt(index)) | 0;
  return hash;
}

/**
 * Replaces the secret and each run of its characters of the minimum length (merged when they
 * touch or overlap). The text's windows are compared by a rolling hash first, so a long text
 * (a tool result of megabytes) costs a few nanoseconds per character, not a substring each.
 */
function redactEchoes(text: string, secret: string): string {
  if (secret.length < secretEchoMinimumLength) return text.split(secret).join(redactedMarker);
  if (text.length < secretEchoMinimumLength) return text;
  const window = secretEchoMinimumLength;
  const runs = new Set<string>();
  const hashes = new Set<number>();
  for (let start = 0; start + window <= secret.length; start += 1) {
    runs.add(secret.slice(start, start + window));
    hashes.add(windowHash(secret, start));
  }
  let result = "";
  let copiedUpTo = 0;
  let coveredUpTo = -1;
  let runStart = -1;
  let hash = windowHash(text, 0);
  for (let start = 0; start + window <= text.length; start += 1) {
    if (start > 0) hash = (Math.imul(hash - Math.imul(text.charCodeAt(start - 1), leavingFactor), hashBase) + text.charCodeAt(start + window - 1)) | 0;
    if (!hashes.has(hash) || !runs.has(text.slice(start, start + window))) continue;
    if (start > coveredUpTo) {
      if (runStart !== -1) {
        result += text.slice(copiedUpTo, runStart) + redactedMarker;
        copiedUpTo = coveredUpTo;
      }
      runStart = start;
    }
    coveredUpTo = start + window;
  }
  if (runStart === -1) return text;
  result += text.slice(copiedUpTo, runStart) + redactedMarker;
  return result + text.slice(coveredUpTo);
}
