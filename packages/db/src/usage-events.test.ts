import { describe, expect, it } from "vitest";
import { usageEvent } from "../test/usage-event-fixture.js";
import { aggregateUsageRollups } from "./usage-events.js";

describe("aggregateUsageRollups", () => {
  it("sums each UTC day apart, whatever the order of the events around midnight", () => {
    const at = (iso: string, inputTokens: number) => usageEvent({ occurredAt: new Date(iso), organizationId: "org", inputTokens });
    const groups = aggregateUsageRollups([
      at("2026-03-01T23:59:59.999Z", 1),
      at("2026-03-02T00:00:00.000Z", 10),
      at("2026-03-01T12:00:00.000Z", 100),
      at("2026-03-02T23:00:00.000Z", 1000),
    ]);
    expect(groups.map((group) => [group.day, group.requestCount, group.inputTokens])).toEqual([
      ["2026-03-01", 2n, 101n],
      ["2026-03-02", 2n, 1010n],
    ]);
  });
});
