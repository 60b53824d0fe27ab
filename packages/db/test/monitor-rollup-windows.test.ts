import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, monitorRollupGroupStatements, monitorRollupSummedColumns, sumMonitorRollupWindows, sumMonitorRollups } from "../src/index.js";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";

const end = new Date("2026-01-02T13:40:00Z");
const windowsMinutes = [5, 30, 60, 90, 200, 1440];

/** Minute and hour rows for two models of two organizations (hour rows independent of minute rows, so a wrong grain shows). */
function groups() {
  const rows = [];
  for (const [organization, model, step] of [["org_a", "gpt", 7], ["org_a", "claude", 11], ["org_b", "gpt", 13]] as const) {
    for (let minute = 1; minute <= 26 * 60; minute += step) {
      const sums = monitorRollupSummedColumns.map((_, column) => (minute % 5) + column + 1);
      rows.push({ bucketMinutes: 1, bucketStart: new Date(end.getTime() - minute * 60_000), key: [organization, "", "", "", model, "", ""], sums });
    }
    for (let hour = 0; hour <= 26; hour += 1) {
      const sums = monitorRollupSummedColumns.map((_, column) => 1000 * (hour + 1) + column);
      rows.push({ bucketMinutes: 60, bucketStart: new Date(Math.floor(end.getTime() / 3_600_000) * 3_600_000 - hour * 3_600_000), key: [organization, "", "", "", model, "", ""], sums });
    }
  }
  return rows;
}

const sorted = <T extends { key: string[] }>(rows: T[]) => [...rows].sort((left, right) => left.key.join("/").localeCompare(right.key.join("/")));

describe.each(databaseTargets)("monitor rollup windows on $provider", (target) => {
  let fresh: FreshDatabase;
  let db: Database;

  beforeAll(async () => {
    if (target.skip) return;
    fresh = await target.fresh();
    db = fresh.open();
    await db.migrate();
    await db.runStatements(monitorRollupGroupStatements(db.provider, groups()));
  });

  afterAll(async () => {
    if (target.skip) return;
    await db.close();
    await fresh.cleanup();
  });

  it.skipIf(target.skip)("sums every window in one query exactly as one query per window does", async () => {
    for (const groupBy of [["organization_id"], ["organization_id", "model"]] as const) {
      const windows = await sumMonitorRollupWindows(db, { organizationIds: ["org_a", "org_b"], end, windowsMinutes, groupBy });
      expect([...windows.keys()].sort((left, right) => left - right)).toEqual(windowsMinutes);
      for (const minutes of windowsMinutes) {
        const expected = await sumMonitorRollups(db, { organizationIds: ["org_a", "org_b"], start: new Date(end.getTime() - minutes * 60_000), end, groupBy });
        expect(expected.length).toBeGreaterThan(0);
        expect(sorted(windows.get(minutes)!)).toEqual(sorted(expected.map(({ key, values }) => ({ key, values }))));
      }
    }
  });

  it.skipIf(target.skip)("applies a query's own settings to that query alone", async () => {
    if (db.provider !== "postgresql") {
      expect(await db.queryStatement({ sql: "SELECT 1 AS one", args: [], settings: { jit: "off" } })).toEqual([{ one: 1 }]);
      return;
    }
    // The pool hands out the connection released last: a setting that leaked would show on the next queries.
    const [before] = await db.queryStatement({ sql: "SELECT current_setting('work_mem') AS work_mem", args: [] });
    const [scoped] = await db.queryStatement({ sql: "SELECT current_setting('work_mem') AS work_mem, current_setting('jit') AS jit", args: [], settings: { work_mem: "77MB", jit: "off" } });
    expect(scoped).toEqual({ work_mem: "77MB", jit: "off" });
    for (let round = 0; round < 4; round += 1) {
      expect((await db.queryStatement({ sql: "SELECT current_setting('work_mem') AS work_mem", args: [] }))[0]).toEqual(before);
    }
  });

  it.skipIf(target.skip)("leaves out the organizations not asked for", async () => {
    const windows = await sumMonitorRollupWindows(db, { organizationIds: ["org_b"], end, windowsMinutes: [60], groupBy: ["organization_id", "model"] });
    expect(windows.get(60)!.map((row) => row.key)).toEqual([["org_b", "gpt"]]);
  });
});
