import path from "node:path";
import { outboundAddressPolicyFromEnvironment } from "@gateway/provider-adapters";
import { defaultWebAppRoot } from "./http/serve-web-app.js";

/** Everything the dashboard API reads from the environment, parsed once. */
export interface DashboardSettings {
  /** `DASHBOARD_PORT` (default 8081). */
  port: number;
  /**
   * `GATEWAY_DATA_DIR` (default `./data`), as the gateway reads it: the embedded SQLite database
   * (`gateway.db`, when `DATABASE_URL` is unset) and the generated secret key live there.
   */
  dataDirectory: string;
  /** `DASHBOARD_HOST` (default 127.0.0.1). */
  host: string;
  /**
   * The dashboard's own origins (`DASHBOARD_ORIGIN`, comma-separated). Unsafe requests that
   * carry a session cookie must come from one of them. Default: `http://localhost:<port>` and
   * `http://127.0.0.1:<port>`.
   */
  origins: string[];
  /**
   * `DASHBOARD_INSECURE_COOKIES=localhost`: leave `Secure` off the session cookie, but only
   * when the request's host is `localhost` or `127.0.0.1` (plain-http local development).
   */
  insecureLocalhostCookies: boolean;
  /** `DASHBOARD_SESSION_TTL_SECONDS` (default 43200 = 12 h). */
  sessionTtlSeconds: number;
  /** `DASHBOARD_PUBLIC_URL`: base of links in emails and of the OAuth callback (default the first origin). */
  publicUrl: string;
  /**
   * `DASHBOARD_GATEWAY_PUBLIC_URL`: the gateway's base URL as applications reach it, shown in the
   * web app's snippets (default `http://127.0.0.1:8080`, the gateway's default address; `pnpm start`
   * passes the address its gateway listens on).
   */
  gatewayPublicUrl: string;
  /** `SMTP_URL` (e.g. `smtp://user:pass@mail.example.com:587`); unset = logged outbox. */
  smtpUrl: string | null;
  /** `DASHBOARD_EMAIL_FROM` (default `AI Gateway <no-reply@localhost>`). */
  emailFrom: string;
  /** `DASHBOARD_INVITATION_TTL_HOURS` (default 168 = 7 days). */
  invitationTtlHours: number;
  /** `DASHBOARD_TRUST_PROXY`: Express `trust proxy` value (default off: the socket address is the client). */
  trustProxy: string | null;
  /**
   * `DASHBOARD_MCP_OAUTH_ORIGINS` (comma-separated origins): where an MCP server's OAuth discovery
   * may go besides the MCP server's own origin (an authorization server on another host). Default
   * none: discovery only uses https on the MCP server's own origin (http too for a server on localhost).
   */
  mcpOAuthOrigins: string[];
  /** `DASHBOARD_DELIVERY_TIMEOUT_MS`: timeout of test deliveries and OAuth discovery (default 5000). */
  deliveryTimeoutMs: number;
  /**
   * `DASHBOARD_MONITOR_INTERVAL_MS`: between two evaluations of the monitors (default 60000; 0 turns
   * this process's evaluator off). One dashboard of the cluster evaluates at a time (a lease row).
   */
  monitorIntervalMs: number;
  /** `REDIS_URL` (the gateways'): control-plane writes are announced there; unset = no announcements (gateways poll). */
  redisUrl: string | null;
  /** `GATEWAY_REDIS_KEY_PREFIX` (default `gateway:`): must match the gateways' so they hear `<prefix>control-plane`. */
  redisKeyPrefix: string;
  /** `DASHBOARD_LOG_LEVEL` (default `info`: one line per request). */
  logLevel: "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
  /** `DASHBOARD_LOG_FORMAT`: `json` or `pretty`; unset: pretty only when stdout is a terminal. */
  logFormat: "json" | "pretty" | undefined;
  /** `DASHBOARD_READINESS_TIMEOUT_MS`: longest wait of each `/readyz` check (default 2000). */
  readinessTimeoutMs: number;
  /**
   * `DASHBOARD_WEB_ROOT`: directory of the built web app served at `/` (default: the repository's
   * `apps/dashboard-web/dist`); `off` serves the API only. A directory without `index.html` serves the API only.
   */
  webRoot: string | null;
  /**
   * `DASHBOARD_SSO_BREAK_GLASS_EMAILS` (comma-separated emails): owners who may still sign in with
   * their password to an organization that requires single sign-on (an identity provider outage
   * must not lock everyone out). Only owners, only listed emails; each such sign-in is audited as
   * `auth.login_break_glass`. Default none.
   */
  ssoBreakGlassEmails: string[];
}

/** Parses the dashboard settings from environment variables (documented in the README). */
export function readDashboardSettings(environment: NodeJS.ProcessEnv = process.env): DashboardSettings {
  const port = readInteger(environment.DASHBOARD_PORT, 8081, "DASHBOARD_PORT", 0, 65535);
  const origins = (environment.DASHBOARD_ORIGIN ?? "")
    .split(",")
    .map((value) => value.trim())
    .filter((value) => value !== "")
    .map((value) => normalizeOrigin(value, "DASHBOARD_ORIGIN"));
  if (origins.length === 0) origins.push(`http://localhost:${port}`, `http://127.0.0.1:${port}`);
  // Shared with the gateway and read by the outbound `fetch` and URL checks: a typo fails the start here.
  outboundAddressPolicyFromEnvironment(environment);
  const insecure = (environment.DASHBOARD_INSECURE_COOKIES ?? "").trim().toLowerCase();
  if (insecure !== "" && insecure !== "localhost" && insecure !== "false" && insecure !== "0") {
    throw new Error("DASHBOARD_INSECURE_COOKIES accepts only 'localhost' (or empty).");
  }
  return {
    port,
    dataDirectory: environment.GATEWAY_DATA_DIR?.trim() || "./data",
    host: environment.DASHBOARD_HOST?.trim() || "127.0.0.1",
    origins,
    insecureLocalhostCookies: insecure === "localhost",
    sessionTtlSeconds: readInteger(environment.DASHBOARD_SESSION_TTL_SECONDS, 43_200, "DASHBOARD_SESSION_TTL_SECONDS", 60, 31_536_000),
    publicUrl: (environment.DASHBOARD_PUBLIC_URL?.trim() || origins[0]!).replace(/\/+$/, ""),
    gatewayPublicUrl: readBaseUrl(environment.DASHBOARD_GATEWAY_PUBLIC_URL, "http://127.0.0.1:8080", "DASHBOARD_GATEWAY_PUBLIC_URL"),
    smtpUrl: environment.SMTP_URL?.trim() || null,
    emailFrom: environment.DASHBOARD_EMAIL_FROM?.trim() || "AI Gateway <no-reply@localhost>",
    invitationTtlHours: readInteger(environment.DASHBOARD_INVITATION_TTL_HOURS, 168, "DASHBOARD_INVITATION_TTL_HOURS", 1, 8760),
    trustProxy: environment.DASHBOARD_TRUST_PROXY?.trim() || null,
    mcpOAuthOrigins: (environment.DASHBOARD_MCP_OAUTH_ORIGINS ?? "")
      .split(",")
      .map((value) => value.trim())
      .filter((value) => value !== "")
      .map((value) => normalizeOrigin(value, "DASHBOARD_MCP_OAUTH_ORIGINS")),
    deliveryTimeoutMs: readInteger(environment.DASHBOARD_DELIVERY_TIMEOUT_MS, 5000, "DASHBOARD_DELIVERY_TIMEOUT_MS", 100, 120_000),
    monitorIntervalMs: readInteger(environment.DASHBOARD_MONITOR_INTERVAL_MS, 60_000, "DASHBOARD_MONITOR_INTERVAL_MS", 0, 3_600_000),
    redisUrl: environment.REDIS_URL?.trim() || null,
    redisKeyPrefix: readRedisKeyPrefix(environment.GATEWAY_REDIS_KEY_PREFIX),
    logLevel: readChoice(environment.DASHBOARD_LOG_LEVEL, ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const, "info", "DASHBOARD_LOG_LEVEL"),
    logFormat: environment.DASHBOARD_LOG_FORMAT?.trim() ? readChoice(environment.DASHBOARD_LOG_FORMAT, ["json", "pretty"] as const, "json", "DASHBOARD_LOG_FORMAT") : undefined,
    readinessTimeoutMs: readInteger(environment.DASHBOARD_READINESS_TIMEOUT_MS, 2000, "DASHBOARD_READINESS_TIMEOUT_MS", 1, 60_000),
    webRoot: readWebRoot(environment.DASHBOARD_WEB_ROOT),
    ssoBreakGlassEmails: (environment.DASHBOARD_SSO_BREAK_GLASS_EMAILS ?? "")
      .split(",")
      .map((value) => value.trim().toLowerCase())
      .filter((value) => value !== ""),
  };
}

/** Default settings for a given port (what an empty environment gives). */
export function defaultDashboardSettings(overrides: Partial<DashboardSettings> = {}): DashboardSettings {
  return { ...readDashboardSettings({}), ...overrides };
}

/** `DASHBOARD_WEB_ROOT`: a directory, `off`, or unset for the repository's built web app. */
function readWebRoot(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? "";
  if (trimmed === "") return defaultWebAppRoot();
  if (trimmed.toLowerCase() === "off") return null;
  return path.resolve(trimmed);
}

/** Same rule as the gateway's: 1 to 100 characters, default `gateway:`. */
function readRedisKeyPrefix(value: string | undefined): string {
  if (value === undefined) return "gateway:";
  if (value.length < 1 || value.length > 100) throw new Error("GATEWAY_REDIS_KEY_PREFIX must be 1 to 100 characters (the gateways' prefix).");
  return value;
}

function readChoice<Choice extends string>(value: string | undefined, choices: readonly Choice[], fallback: Choice, name: string): Choice {
  const trimmed = value?.trim() ?? "";
  if (trimmed === "") return fallback;
  if (!(choices as readonly string[]).includes(trimmed)) throw new Error(`${name} must be one of ${choices.join(", ")}.`);
  return trimmed as Choice;
}

function readInteger(value: string | undefined, fallback: number, name: string, minimum: number, maximum: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < minimum || parsed > maximum) {
    throw new Error(`${name} must be an integer from ${minimum} to ${maximum}.`);
  }
  return parsed;
}

/** An absolute http(s) URL without a trailing slash, query or fragment (a base that paths are appended to). */
function readBaseUrl(value: string | undefined, fallback: string, name: string): string {
  const trimmed = value?.trim() ?? "";
  if (trimmed === "") return fallback;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new Error(`${name} must be an absolute URL such as https://gateway.example.com.`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw new Error(`${name} must be an http(s) URL without credentials, query or fragment, such as https://gateway.example.com.`);
  }
  return url.toString().replace(/\/+$/, "");
}

function normalizeOrigin(value: string, name: string): string {
  try {
    const url = new URL(value);
    return url.origin;
  } catch {
    throw new Error(`${name} must list absolute origins such as https://dashboard.example.com.`);
  }
}
