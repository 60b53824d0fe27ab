import type { CriterionValue } from "./decision-content-schema.js";

/** Maps `"0"`, `"1"`, … to the description of each score level, as given. */
export function buildScoreLegend(levels: readonly CriterionValue[]): Record<string, CriterionValue> {
  const legend: Record<string, CriterionValue> = {};
  levels.forEach((level, index) => {
    legend[String(index)] = level;
  });
  return legend;
}
