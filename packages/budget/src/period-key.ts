/** A budget period. Boundaries are UTC; weeks start on Monday (ISO 8601). */
export type BudgetPeriod = "day" | "week" | "month" | "total";

/** A period window: its key string and its end (epoch ms, exclusive; `null` for `total`). */
export interface PeriodWindow {
  /** `2026-11-22` (day), `2026-W47` (ISO week), `2026-11` (month) or `total`. */
  key: string;
  /** Start, epoch ms inclusive (`0` for `total`). */
  startsAt: number;
  /** End, epoch ms exclusive; `null` for `total` (never ends). */
  endsAt: number | null;
}

const dayMs = 86_400_000;
const totalWindow: PeriodWindow = Object.freeze({ key: "total", startsAt: 0, endsAt: null });

/**
 * The period window containing `timeMs` (epoch ms), UTC. Week keys use the ISO week-numbering
 * year (`2027-01-01` is in `2026-W53`).
 */
export function periodWindow(period: BudgetPeriod, timeMs: number): PeriodWindow {
  const date = new Date(timeMs);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const dayStart = Date.UTC(year, month, date.getUTCDate());
  switch (period) {
    case "day":
      return { key: `${year}-${pad(month + 1)}-${pad(date.getUTCDate())}`, startsAt: dayStart, endsAt: dayStart + dayMs };
    case "week": {
      const weekday = (date.getUTCDay() + 6) % 7; // Monday 0 ... Sunday 6
      const weekStart = dayStart - weekday * dayMs;
      const thursday = new Date(weekStart + 3 * dayMs);
      const isoYear = thursday.getUTCFullYear();
      const week = Math.floor((thursday.getTime() - Date.UTC(isoYear, 0, 1)) / dayMs / 7) + 1;
      return { key: `${isoYear}-W${pad(week)}`, startsAt: weekStart, endsAt: weekStart + 7 * dayMs };
    }
    case "month":
      return { key: `${year}-${pad(month + 1)}`, startsAt: Date.UTC(year, month, 1), endsAt: Date.UTC(year, month + 1, 1) };
    case "total":
      return totalWindow;
  }
}

/** The period key string containing `timeMs`; see {@link periodWindow}. */
export function periodKey(period: BudgetPeriod, timeMs: number): string {
  return periodWindow(period, timeMs).key;
}

/**
 * A per-period cache of {@link periodWindow}: recomputes only when the time leaves the cached
 * window, so the hot path does no date arithmetic.
 * @internal
 */
export function createPeriodCache(): (period: BudgetPeriod, timeMs: number) => PeriodWindow {
  const cached: Partial<Record<BudgetPeriod, PeriodWindow>> = {};
  return (period, timeMs) => {
    const hit = cached[period];
    if (hit && timeMs >= hit.startsAt && (hit.endsAt === null || timeMs < hit.endsAt)) return hit;
    const window = periodWindow(period, timeMs);
    cached[period] = window;
    return window;
  };
}

function pad(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}
