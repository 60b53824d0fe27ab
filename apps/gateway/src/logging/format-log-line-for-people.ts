/**
 * One JSON log line as a short line for a terminal: `12:00:01 INFO  message key=value ...`
 * (time of day, level, message, then the other fields). A line that is not JSON is kept as it is.
 */
export function formatLogLineForPeople(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { time, level, msg, service: _service, ...fields } = entry;
  const clock = typeof time === "string" ? time.slice(11, 19) : "";
  const label = String(level ?? "").toUpperCase().padEnd(5);
  const rest = Object.entries(fields)
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" ");
  return `${clock} ${label} ${String(msg ?? "")}${rest === "" ? "" : ` ${rest}`}\n`;
}
