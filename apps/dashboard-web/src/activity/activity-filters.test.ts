import { describe, expect, it } from "vitest";
import { activityLink, activityListQuery, parseMetadataLines, activitySessionsQuery, parseMetadataFilter, readActivityFilters, withoutActivityFilter } from "./activity-filters.js";
import { describeActivityFilters } from "./describe-activity-filters.js";

describe("activity filters in the address", () => {
  it("reads the filters the API answers to and round-trips them into a link", () => {
    const link = "/activity?from=2026-03-18T10%3A00%3A00.000Z&api_key_id=key_1&status=5xx&min_cost_micros=10000&guardrail_flagged=true&metadata=customer%3Aacme&metadata=tier%3Agold";
    const filters = readActivityFilters(new URL(link, "http://dashboard").searchParams);
    expect(filters).toEqual({ from: "2026-03-18T10:00:00.000Z", api_key_id: "key_1", status: "5xx", min_cost_micros: "10000", guardrail_flagged: "true", metadata: ["customer:acme", "tier:gold"] });
    expect(activityLink(filters)).toBe(link);
    expect(activityLink({})).toBe("/activity");
  });

  it("leaves out what the API would refuse, so an edited address never ends in a 400", () => {
    const search = new URLSearchParams("status=1xx&min_latency_ms=-5&from=yesterday&guardrail_flagged=yes&metadata=no-separator&metadata=bad%20key%3Dx&call=req_1&view=sessions&model=");
    expect(readActivityFilters(search)).toEqual({});
    expect(readActivityFilters(new URLSearchParams("status=429&min_latency_ms=2000"))).toEqual({ status: "429", min_latency_ms: "2000" });
    expect(readActivityFilters(new URLSearchParams("status=teapot"))).toEqual({});
    const many = new URLSearchParams(Array.from({ length: 20 }, (_, index) => ["metadata", `key${index}:v`]));
    expect(readActivityFilters(many).metadata).toHaveLength(16);
  });

  it("takes metadata typed as key=value or key:value, the value keeping its own separators", () => {
    expect(parseMetadataFilter("customer=acme")).toBe("customer:acme");
    expect(parseMetadataFilter(" feature.flag : on ")).toBe("feature.flag:on");
    expect(parseMetadataFilter("url=https://example.com/a=b")).toBe("url:https://example.com/a=b");
    expect(parseMetadataFilter("=value")).toBeNull();
    expect(parseMetadataFilter("key=")).toBeNull();
    expect(parseMetadataFilter(`${"k".repeat(65)}=v`)).toBeNull();
  });

  it("reads an API key's default metadata typed one pair per line", () => {
    expect(parseMetadataLines("team=checkout\n\n region : eu ")).toEqual({ metadata: { team: "checkout", region: "eu" } });
    expect(parseMetadataLines("team=checkout\nnot a pair").error).toBe("“not a pair” is not key=value (letters, digits, _ . - in the key).");
  });

  it("removes one filter, a metadata entry by its value", () => {
    const filters = { model: "demo/chat", metadata: ["a:1", "b:2"] };
    expect(withoutActivityFilter(filters, "metadata", "a:1")).toEqual({ model: "demo/chat", metadata: ["b:2"] });
    expect(withoutActivityFilter({ metadata: ["a:1"] }, "metadata", "a:1")).toEqual({});
    expect(withoutActivityFilter(filters, "model")).toEqual({ metadata: ["a:1", "b:2"] });
  });

  it("asks the list for every filter and the sessions for those that group calls", () => {
    const filters = { request_id: "req_1", session_id: "s1", metadata: ["a:1"] };
    expect(activityListQuery(filters)).toEqual({ request_id: "req_1", session_id: "s1", metadata: ["a:1"] });
    expect(activitySessionsQuery(filters)).toEqual({ session_id: "s1", metadata: ["a:1"] });
  });
});

describe("describeActivityFilters (the chips)", () => {
  const names = { project: (id: string) => (id === "proj_1" ? "Checkout" : id), team: (id: string) => id, key: (id: string) => (id === "key_1" ? "checkout-prod" : id), connection: (id: string) => id, budget: (id: string) => (id === "bud_1" ? "Checkout daily" : id) };

  it("names ids, shows money in dollars and keeps the time range as one chip", () => {
    const chips = describeActivityFilters(
      { from: "2026-03-18T10:00:00.000Z", to: "2026-03-18T11:00:00.000Z", project_id: "proj_1", api_key_id: "key_1", max_cost_micros: "10000", min_latency_ms: "2500", guardrail_flagged: "true", budget_outcome: "rejected:bud_1", metadata: ["customer:acme"] },
      names,
    );
    expect(chips.map((chip) => `${chip.label}: ${chip.value}`)).toEqual([
      expect.stringMatching(/^Time: Mar 18, 2026, \d\d:00 – Mar 18, 2026, \d\d:00$/),
      "Project: Checkout",
      "API key: checkout-prod",
      "Latency at least: 2.5 s",
      "Cost at most: $0.01",
      "Guardrail: flagged",
      "Budget: rejected by Checkout daily",
      "Metadata: customer = acme",
    ]);
    expect(chips[0]!.remove).toEqual([{ name: "from" }, { name: "to" }]);
    expect(chips.at(-1)!.remove).toEqual([{ name: "metadata", value: "customer:acme" }]);
  });
});
