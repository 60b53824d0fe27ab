import { describe, expect, it } from "vitest";
import type { DashboardOperation } from "../api/dashboard-operation.js";
import { navigationGroups, pages } from "./pages.js";

describe("navigation groups", () => {
  it("lists every page in its group, in order, for a role that may open everything", () => {
    const groups = navigationGroups(() => true);
    expect(groups.map((group) => group.label)).toEqual(["Overview", "Access", "Models", "Limits", "Integrations", "Organization"]);
    expect(groups.flatMap((group) => group.pages)).toEqual(pages);
  });

  it("hides the pages a role may not open, and a group left without any", () => {
    const allowed = new Set<DashboardOperation>(["get /api/organization", "get /api/budgets"]);
    const groups = navigationGroups((operation) => allowed.has(operation));
    expect(groups.map((group) => [group.label, group.pages.map((page) => page.label)])).toEqual([
      ["Overview", ["Overview"]],
      ["Limits", ["Budgets"]],
      ["Organization", ["Settings"]],
    ]);
  });
});
