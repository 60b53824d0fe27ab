import { redactSecrets, redactSecretsInValue } from "@gateway/errors";
import { type DestinationStream, type Logger, pino } from "pino";
import type { GatewayLogger } from "../create-gateway-runtime.js";
import { batchedStdout } from "./batched-stdout.js";
import { formatLogLineForPeople } from "./format-log-line-for-people.js";

/**
 * Field paths censored by pino's own redaction, wherever a caller puts them (a log line never
 * carries a key, a password or a token even when someone logs the wrong object).
 */
export const redactedLogPaths = [
  "authorization",
  "cookie",
  "password",
  "secret",
  "token",
  "apiKey",
  "api_key",
  "credential",
  "headers.authorization",
  "headers.cookie",
  'headers["x-api-key"]',
  "*.authorization",
  "*.cookie",
  "*.password",
  "*.secret",
  "*.token",
  "*.apiKey",
  "*.api_key",
  "*.credential",
  '*.headers["x-api-key"]',
  // Azure OpenAI's key header and Entra ID's client-credentials fields.
  'headers["api-key"]',
  '*.headers["api-key"]',
  "client_secret",
  "*.client_secret",
  "access_token",
  "*.access_token",
];

/** One request's line: ids, route and outcome; never keys, bodies or content. */
export interface RequestLogFields {
  request_id: string;
  method: string;
  route: string;
  status: number;
  duration_ms: number;
  organization_id?: string;
  project_id?: string;
}

/** The gateway's logger: the {@link GatewayLogger} notices and errors, plus one line per request. */
export interface GatewayJsonLogger extends GatewayLogger {
  /** Writes one request's line at `info`. */
  request(fields: RequestLogFields): void;
  /** Whether request lines are written (the level is `info` or lower). */
  readonly logsRequests: boolean;
  /** The pino logger underneath. */
  readonly pino: Logger;
}

/** Options of {@link createGatewayLogger}. */
export interface GatewayLoggerOptions {
  /** Least level written (default `info`). */
  level?: "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
  /** `json` lines, or `pretty` lines; default: pretty only when stdout is a terminal. */
  format?: "json" | "pretty";
  /** Where lines go (default stdout, written asynchronously in order, in batches of up to 4 KB at most 200 ms late). */
  destination?: DestinationStream;
  /** The `service` field of every line (default `gateway`). */
  service?: string;
}

/**
 * A pino logger writing JSON lines (`level`, `time`, `service`, fields, `msg`), with secrets
 * censored by pino's redaction. Errors are logged by name, code and message, never with a stack
 * (a stack can carry a secret from a provider's message). In a terminal the same lines are shown
 * as short readable lines, in this process (no worker thread).
 */
export function createGatewayLogger(options: GatewayLoggerOptions = {}): GatewayJsonLogger {
  const pretty = options.format === "pretty" || (options.format === undefined && process.stdout.isTTY === true);
  const destination =
    options.destination ??
    (pretty
      ? { write: (line: string) => void process.stdout.write(formatLogLineForPeople(line)) }
      : batchedStdout());
  const lineOptions = {
    level: options.level ?? "info",
    base: { service: options.service ?? "gateway" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  const logger = pino(
    {
      ...lineOptions,
      redact: { paths: redactedLogPaths, censor: "[redacted]" },
      // Paths censor known field names; this removes key shapes and bearer tokens from every
      // message and field value (an error message may quote a provider's key).
      hooks: { logMethod: redactLogArguments },
    },
    destination,
  );
  // Request lines carry a fixed set of fields that cannot hold a secret (ids, the method, the
  // route pattern, the status, a duration), so they skip the redaction passes, which cost several
  // times the rest of the line on every request. Same destination, same line shape.
  const requestLines = pino(lineOptions, destination);
  return {
    info: (message, fields) => (fields === undefined ? logger.info(message) : logger.info(fields, message)),
    error: (message, error, fields) => logger.error({ ...fields, ...(error === undefined ? {} : { err: describeError(error) }) }, message),
    request: (fields) =>
      requestLines.info(
        {
          request_id: fields.request_id,
          method: fields.method,
          route: fields.route,
          status: fields.status,
          duration_ms: fields.duration_ms,
          ...(fields.organization_id === undefined ? {} : { organization_id: fields.organization_id }),
          ...(fields.project_id === undefined ? {} : { project_id: fields.project_id }),
        },
        "request",
      ),
    logsRequests: logger.isLevelEnabled("info"),
    pino: logger,
  };
}

/** An error as name, code and message only. */
export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { name: error.name, message: error.message, ...(typeof code === "string" ? { code } : {}) };
  }
  return { message: String(error) };
}

/**
 * pino's `logMethod` hook: each argument of a log call (message, fields) with secrets redacted,
 * except on the lines that print secrets the gateway generated, once, on purpose (first start,
 * keys generated from the configuration file), marked with the field `shown_once: true`.
 */
function redactLogArguments(this: unknown, inputs: unknown[], method: (...inputs: unknown[]) => void): void {
  const shownOnce = inputs.some((input) => typeof input === "object" && input !== null && (input as Record<string, unknown>).shown_once === true);
  method.apply(this, shownOnce ? inputs : inputs.map((input) => (typeof input === "string" ? redactSecrets(input) : redactSecretsInValue(input))));
}
