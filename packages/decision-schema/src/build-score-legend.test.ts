import { describe, expect, it } from "vitest";
import { buildScoreLegend } from "./build-score-legend.js";

describe("buildScoreLegend", () => {
  it('maps "0", "1", … to each level as given', () => {
    const levels = ["bad", { label: "ok" }, null, ["great", "!"]];
    expect(buildScoreLegend(levels)).toEqual({ "0": "bad", "1": { label: "ok" }, "2": null, "3": ["great", "!"] });
    expect(Object.keys(buildScoreLegend(levels))).toEqual(["0", "1", "2", "3"]);
  });
});
