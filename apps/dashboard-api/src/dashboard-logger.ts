/** The few log calls the dashboard makes. Fields never carry secrets. */
export interface DashboardLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A logger writing one JSON line per entry to stdout/stderr. */
export function createConsoleLogger(): DashboardLogger {
  const write = (level: string, message: string, fields?: Record<string, unknown>) => {
    const line = JSON.stringify({ time: new Date().toISOString(), level, service: "dashboard-api", message, ...fields });
    if (level === "info") process.stdout.write(`${line}\n`);
    else process.stderr.write(`${line}\n`);
  };
  return {
    info: (message, fields) => write("info", message, fields),
    warn: (message, fields) => write("warn", message, fields),
    error: (message, fields) => write("error", message, fields),
  };
}

/** A logger that drops everything (tests). */
export function createSilentLogger(): DashboardLogger {
  const ignore = () => undefined;
  return { info: ignore, warn: ignore, error: ignore };
}
