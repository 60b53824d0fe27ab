/** A count with thousands separators ("12,345"). */
export function formatNumber(value: number): string {
  return value.toLocaleString("en-US");
}

/** A large count shortened ("1.2k", "3.4M"). */
export function formatCompactNumber(value: number): string {
  return value.toLocaleString("en-US", { notation: "compact", maximumFractionDigits: 1 });
}

/** A share as a percentage ("12.5%"). */
export function formatPercent(fraction: number): string {
  return `${(fraction * 100).toLocaleString("en-US", { maximumFractionDigits: 1 })}%`;
}

/** Milliseconds as "850 ms" or "1.2 s". */
export function formatDuration(milliseconds: number | null | undefined): string {
  if (milliseconds === null || milliseconds === undefined) return "–";
  return milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toLocaleString("en-US", { maximumFractionDigits: 1 })} s`;
}
