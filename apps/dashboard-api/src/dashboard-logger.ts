import { redactSecrets, redactSecretsInValue } from "@gateway/errors";
import { type DestinationStream, pino } from "pino";

/** The few log calls the dashboard makes. Fields never carry secrets (pino's redaction censors them anyway). */
export interface DashboardLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Field paths censored by pino's redaction wherever a caller puts them. */
export const redactedDashboardLogPaths = [
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
  "*.authorization",
  "*.cookie",
  "*.password",
  "*.secret",
  "*.token",
  "*.apiKey",
  "*.api_key",
  "*.credential",
];

/** Options of {@link createConsoleLogger}. */
export interface DashboardLoggerOptions {
  /** Least level written (default `info`: one line per request). */
  level?: "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
  /** `json` lines, or `pretty` lines; default: pretty only when stdout is a terminal. */
  format?: "json" | "pretty";
  /** Where lines go (default stdout, written asynchronously in order). */
  destination?: DestinationStream;
}

/**
 * A pino logger writing one JSON line per entry to stdout (`level`, `time`, `service:
 * "dashboard-api"`, fields, `msg`), secrets censored by pino's redaction; in a terminal, short
 * readable lines instead (in this process, no worker thread).
 */
export function createConsoleLogger(options: DashboardLoggerOptions = {}): DashboardLogger {
  const pretty = options.format === "pretty" || (options.format === undefined && process.stdout.isTTY === true);
  const destination =
    options.destination ?? (pretty ? { write: (line: string) => void process.stdout.write(formatForPeople(line)) } : pino.destination({ dest: 1, sync: false }));
  const logger = pino(
    {
      level: options.level ?? "info",
      base: { service: "dashboard-api" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: redactedDashboardLogPaths, censor: "[redacted]" },
      // Paths censor known field names; this removes key shapes and bearer tokens from every
      // message and field value (an error message may quote a provider's key).
      hooks: { logMethod: redactLogArguments },
    },
    destination,
  );
  const write = (level: "info" | "warn" | "error") => (message: string, fields?: Record<string, unknown>) =>
    fields === undefined ? logger[level](message) : logger[level](fields, message);
  return { info: write("info"), warn: write("warn"), error: write("error") };
}

/** `12:00:01 INFO  message key=value ...` from one JSON line (kept as it is when not JSON). */
function formatForPeople(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { time, level, msg, service: _service, ...fields } = entry;
  const rest = Object.entries(fields)
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" ");
  return `${typeof time === "string" ? time.slice(11, 19) : ""} ${String(level ?? "").toUpperCase().padEnd(5)} ${String(msg ?? "")}${rest === "" ? "" : ` ${rest}`}\n`;
}

/** A logger that drops everything (tests). */
export function createSilentLogger(): DashboardLogger {
  const ignore = () => undefined;
  return { info: ignore, warn: ignore, error: ignore };
}

/** pino's `logMethod` hook: each argument of a log call (message, fields) with secrets redacted. */
function redactLogArguments(this: unknown, inputs: unknown[], method: (...inputs: unknown[]) => void): void {
  method.apply(this, inputs.map((input) => (typeof input === "string" ? redactSecrets(input) : redactSecretsInValue(input))));
}
