import { monitorRollupGroupStatements, monitorRollupSummedColumns, type Database } from "@gateway/db";

/**
 * Records calls of an organization in the monitors' rollup (what the gateway's usage writer
 * adds per event), in the minute before `now`'s minute and its hour: inside every window an
 * evaluation at `now` reads. `errors` of the `calls` answered with an error status.
 */
export async function recordMonitorCalls(database: Database, input: { organizationId: string; now: Date; calls: number; errors: number }): Promise<void> {
  const minuteStart = Math.floor(input.now.getTime() / 60_000) * 60_000 - 60_000;
  const sums = new Array<number>(monitorRollupSummedColumns.length).fill(0);
  sums[monitorRollupSummedColumns.indexOf("request_count")] = input.calls;
  sums[monitorRollupSummedColumns.indexOf("error_count")] = input.errors;
  sums[monitorRollupSummedColumns.indexOf("latency_bucket_0")] = input.calls;
  const key = [input.organizationId, "", "", "", "fixed", "", ""];
  const groups = [1, 60].map((bucketMinutes) => ({
    bucketMinutes,
    bucketStart: new Date(Math.floor(minuteStart / (bucketMinutes * 60_000)) * bucketMinutes * 60_000),
    key,
    sums,
  }));
  await database.runStatements(monitorRollupGroupStatements(database.provider, groups));
}
