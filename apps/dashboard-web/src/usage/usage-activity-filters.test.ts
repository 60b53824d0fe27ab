import { describe, expect, it } from "vitest";
import { activityLink } from "../activity/activity-filters.js";
import { otherGroupKey } from "./pivot-usage.js";
import { usageActivityFilters } from "./usage-activity-filters.js";

const from = new Date("2026-03-18T10:00:00.000Z");
const to = new Date("2026-03-18T11:00:00.000Z");

describe("usageActivityFilters (a chart's bar or group -> the Activity screen)", () => {
  it("filters by the group the chart shows (a model without its provider, as calls record it) and the bucket's time range", () => {
    expect(usageActivityFilters({ groupBy: "model", key: "demo/demo/chat", from, to })).toEqual({ from: from.toISOString(), to: to.toISOString(), model: "demo/chat" });
    expect(usageActivityFilters({ groupBy: "model", key: "gpt-4o", from, to })).toMatchObject({ model: "gpt-4o" });
    expect(usageActivityFilters({ groupBy: "api_key", key: "key_1", from, to })).toMatchObject({ api_key_id: "key_1" });
    expect(usageActivityFilters({ groupBy: "client_label", key: "checkout-service", from, to })).toMatchObject({ client_label: "checkout-service" });
    expect(activityLink(usageActivityFilters({ groupBy: "model", key: "demo/demo/chat", from, to, projectId: "proj_1" }))).toBe(
      "/activity?from=2026-03-18T10%3A00%3A00.000Z&to=2026-03-18T11%3A00%3A00.000Z&project_id=proj_1&model=demo%2Fchat",
    );
  });

  it("adds no group filter for the folded, unknown or ungrouped calls", () => {
    for (const key of [otherGroupKey, "", undefined]) expect(usageActivityFilters({ groupBy: "api_key", key, from, to })).toEqual({ from: from.toISOString(), to: to.toISOString() });
    expect(usageActivityFilters({ groupBy: "none", key: "anything", from, to, projectId: "proj_1" })).toEqual({ from: from.toISOString(), to: to.toISOString(), project_id: "proj_1" });
  });

  it("lets a project group override the chart's project", () => {
    expect(usageActivityFilters({ groupBy: "project", key: "proj_2", from, to, projectId: "proj_1" })).toMatchObject({ project_id: "proj_2" });
  });
});
