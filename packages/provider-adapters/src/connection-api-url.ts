/**
 * The URL of one upstream API path of a connection, by one rule for every connection kind:
 * the base URL may be given with or without the version segment `/v1` and with or without
 * trailing slashes. `path` is the API path after the version (`/chat/completions`,
 * `/messages`, `/models`, `/systemone`).
 *
 * - A base URL whose path ends in `/v1` is the API root as it is.
 * - Otherwise `/v1` is added, except for a base URL that already has a path of its own when the
 *   connection's provider says such a path is the API root (`baseUrlPathIsApiRoot`, passed in by
 *   the caller, who knows the provider: this module reads no registry). OpenAI-compatible
 *   APIs live under their own prefix, `https://api.groq.com/openai/v1`,
 *   `https://generativelanguage.googleapis.com/v1beta/openai`), which is taken as given.
 *
 * So `https://api.openai.com` and `https://api.openai.com/v1/` both give
 * `https://api.openai.com/v1/chat/completions`, and `https://api.anthropic.com` and
 * `https://api.anthropic.com/v1` both give `https://api.anthropic.com/v1/messages`.
 */
export function resolveApiUrl(baseUrl: string, path: string, baseUrlPathIsApiRoot: boolean): string {
  // Called on every upstream call with a handful of distinct inputs (the configured
  // connections): remembered, since parsing the base URL is most of the work.
  const key = `${baseUrlPathIsApiRoot ? 1 : 0}\n${baseUrl}\n${path}`;
  const known = resolved.get(key);
  if (known !== undefined) return known;
  const url = resolveUncached(baseUrl, path, baseUrlPathIsApiRoot);
  if (resolved.size >= maxResolved) resolved.clear();
  resolved.set(key, url);
  return url;
}

const maxResolved = 1024;
const resolved = new Map<string, string>();

function resolveUncached(baseUrl: string, path: string, baseUrlPathIsApiRoot: boolean): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  let basePath: string;
  try {
    basePath = new URL(trimmed).pathname.replace(/\/+$/, "");
  } catch {
    basePath = "";
  }
  const versioned = /\/v1$/i.test(basePath) || (basePath !== "" && baseUrlPathIsApiRoot);
  return `${versioned ? trimmed : `${trimmed}/v1`}${path}`;
}
