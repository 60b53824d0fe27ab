const DAY_MS = 86_400_000;
/** How far back from the top of the range each successive window of a newest-first walk reaches. */
const windowDepthsMs = [DAY_MS, 8 * DAY_MS];

/** A span of `occurred_at`: inclusive `from`, exclusive `to`; absent bounds are open. */
export interface TimeWindow {
  from?: Date;
  to?: Date;
}

/**
 * The windows a newest-first walk reads one after the other, newest first, until a page is full:
 * the day below the top of the range (the cursor's call, else `to`, else now), the week before
 * that, then everything older, each cut to `[from, to)`. They are disjoint and together cover
 * the range, so reading them in turn gives the same rows in the same order as one query. On
 * PostgreSQL each query then plans and reads only the day partitions of its window, and a sparse
 * filter (a metadata pair, a flag) scans a day of calls for a page instead of the whole range.
 */
export function newestFirstWindows(range: TimeWindow, top: Date | undefined, now: Date): TimeWindow[] {
  const topMs = Math.min(top?.getTime() ?? Number.POSITIVE_INFINITY, range.to?.getTime() ?? Number.POSITIVE_INFINITY);
  const startMs = Number.isFinite(topMs) ? topMs : now.getTime();
  const fromMs = range.from?.getTime() ?? Number.NEGATIVE_INFINITY;
  const windows: TimeWindow[] = [];
  let upper = range.to;
  for (const depth of windowDepthsMs) {
    const edge = startMs - depth;
    if (edge <= fromMs) break;
    windows.push({ from: new Date(edge), ...(upper ? { to: upper } : {}) });
    upper = new Date(edge);
  }
  windows.push({ ...(range.from ? { from: range.from } : {}), ...(upper ? { to: upper } : {}) });
  return windows;
}
