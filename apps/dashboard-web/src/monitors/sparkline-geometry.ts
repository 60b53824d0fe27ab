/** What a {@link sparklineGeometry} draws: the value line, its lone points, and the threshold's height. */
export interface SparklineGeometry {
  /** An SVG path: one `M` per run of measured points, so a gap (no calls) breaks the line. */
  path: string;
  /** Points with no measured neighbour, drawn as dots (a line needs two points). */
  dots: { x: number; y: number }[];
  /** The y of the threshold line. */
  thresholdY: number;
}

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * Lays values (oldest first; null where nothing was measured) and a threshold out in a box of
 * `width` x `height`: evenly spaced, the scale from 0 (or the lowest value, if negative) to the
 * highest of the values and the threshold, so the threshold line is always in the box.
 */
export function sparklineGeometry(options: { values: readonly (number | null)[]; threshold: number; width: number; height: number; padding?: number }): SparklineGeometry {
  const padding = options.padding ?? 2;
  const measured = options.values.filter((value): value is number => value !== null);
  const low = Math.min(0, options.threshold, ...measured);
  const high = Math.max(low, options.threshold, ...measured);
  const span = high - low || 1;
  const step = options.values.length > 1 ? (options.width - 2 * padding) / (options.values.length - 1) : 0;
  const x = (index: number) => round(padding + index * step);
  const y = (value: number) => round(options.height - padding - ((value - low) / span) * (options.height - 2 * padding));
  let path = "";
  const dots: { x: number; y: number }[] = [];
  options.values.forEach((value, index) => {
    if (value === null) return;
    const previous = index > 0 ? options.values[index - 1] : null;
    const next = index < options.values.length - 1 ? options.values[index + 1] : null;
    path += `${previous === null || previous === undefined ? "M" : "L"}${x(index)} ${y(value)} `;
    if ((previous === null || previous === undefined) && (next === null || next === undefined)) dots.push({ x: x(index), y: y(value) });
  });
  return { path: path.trim(), dots, thresholdY: y(options.threshold) };
}
