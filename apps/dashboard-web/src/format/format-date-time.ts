/** A timestamp as a short local date and time ("Mar 18, 2026, 12:00"); "never" for null. */
export function formatDateTime(value: string | null | undefined, fallback = "never"): string {
  if (!value) return fallback;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString("en-US", { month: "short", day: "numeric", year: "numeric", hour: "2-digit", minute: "2-digit", hour12: false });
}

/** How long ago a timestamp was, in the largest whole unit ("3 min ago", "2 days ago"). */
export function formatRelativeTime(value: string | null | undefined, now: Date = new Date(), fallback = "never"): string {
  if (!value) return fallback;
  const seconds = Math.round((now.getTime() - new Date(value).getTime()) / 1000);
  const future = seconds < 0;
  const magnitude = Math.abs(seconds);
  const units: [number, string][] = [
    [86_400, "day"],
    [3_600, "hour"],
    [60, "min"],
  ];
  for (const [size, name] of units) {
    if (magnitude >= size) {
      const count = Math.floor(magnitude / size);
      const label = name === "min" ? "min" : count === 1 ? name : `${name}s`;
      return future ? `in ${count} ${label}` : `${count} ${label} ago`;
    }
  }
  return future ? "in a moment" : "just now";
}

/** A timestamp as compact as it can be: the time for today, else the day and time ("Mar 18 14:05"). */
export function formatShortDateTime(value: string, now: Date = new Date()): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay
    ? date.toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false })
    : date.toLocaleString("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false });
}
