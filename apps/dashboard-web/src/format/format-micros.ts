/**
 * Renders micro-USD as dollars: two decimals from $1, more below (so $0.0042 or $0.000011 of
 * a cheap call stays visible), "$0" for nothing.
 */
export function formatMicros(micros: number): string {
  if (micros === 0) return "$0";
  const dollars = micros / 1_000_000;
  const size = Math.abs(dollars);
  const digits = size >= 1 ? 2 : size >= 0.01 ? 3 : size >= 0.0001 ? 4 : 6;
  const rendered = dollars.toLocaleString("en-US", { minimumFractionDigits: Math.min(2, digits), maximumFractionDigits: digits });
  return dollars < 0 ? `-$${rendered.slice(1)}` : `$${rendered}`;
}

/**
 * Parses dollars typed in a form ("25", "$1,250.50", "0.005") into whole micro-USD; null when it
 * is not a non-negative amount with at most six decimals.
 */
export function parseDollarsToMicros(text: string): number | null {
  const cleaned = text.trim().replace(/^\$/, "").replace(/,/g, "");
  if (!/^\d+(\.\d{0,6})?$/.test(cleaned)) return null;
  const [whole, fraction = ""] = cleaned.split(".");
  return Number(whole) * 1_000_000 + Number(fraction.padEnd(6, "0"));
}
