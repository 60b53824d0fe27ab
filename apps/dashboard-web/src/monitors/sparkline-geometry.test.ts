import { describe, expect, it } from "vitest";
import { sparklineGeometry } from "./sparkline-geometry.js";

describe("the sparkline", () => {
  it("spans the box from 0 to the highest value, oldest value on the left", () => {
    const geometry = sparklineGeometry({ values: [0, 5, 10], threshold: 5, width: 100, height: 50, padding: 0 });
    expect(geometry.path).toBe("M0 50 L50 25 L100 0");
    expect(geometry.thresholdY).toBe(25);
    expect(geometry.dots).toEqual([]);
  });

  it("keeps a threshold above every value inside the box", () => {
    const geometry = sparklineGeometry({ values: [1, 2], threshold: 4, width: 100, height: 40, padding: 0 });
    expect(geometry.thresholdY).toBe(0);
    expect(geometry.path).toBe("M0 30 L100 20");
  });

  it("breaks the line where nothing was measured and draws a lone point as a dot", () => {
    const geometry = sparklineGeometry({ values: [2, 2, null, 4, null], threshold: 0, width: 40, height: 40, padding: 0 });
    expect(geometry.path).toBe("M0 20 L10 20 M30 0");
    expect(geometry.dots).toEqual([{ x: 30, y: 0 }]);
  });

  it("draws nothing but the threshold when no value was measured", () => {
    const geometry = sparklineGeometry({ values: [null, null], threshold: 0, width: 40, height: 40, padding: 0 });
    expect(geometry.path).toBe("");
    expect(geometry.thresholdY).toBe(40);
  });
});
