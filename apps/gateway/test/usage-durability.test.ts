import type { ChildProcess } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { createDatabase } from "@gateway/db";
import { afterEach, describe, expect, it } from "vitest";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { type ServerProcess, startServerProcess, stopServerProcess } from "./support/server-process.js";
import { createTemporaryDirectory } from "./support/temporary-directory.js";

let running: ChildProcess | undefined;
async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess({ GATEWAY_PORT: "0", GATEWAY_METRICS_PORT: "off", ...env });
  running = server.process;
  return server;
}
afterEach(() => {
  if (running?.exitCode === null) running.kill("SIGKILL");
  running = undefined;
});

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGKILL");
  await exited;
}

/** `count` answered decision calls (ten at a time); their request ids. */
async function answeredCalls(url: string, apiKey: string, count: number): Promise<string[]> {
  const requestIds: string[] = [];
  for (let start = 0; start < count; start += 10) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(10, count - start) }, () => postDecision(url, { apiKey, body: decisionBody("demo/demo/decide") })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      requestIds.push(answer.requestId);
    }
  }
  return requestIds;
}

/** How many stored usage events each request id has, and the requests counted in the daily rollups. */
async function storedUsage(dataDirectory: string, requestIds: string[], url?: string): Promise<{ perRequest: number[]; rolledUp: number }> {
  const database = createDatabase(url === undefined ? { dataDirectory } : { url });
  try {
    const rows = await database.prisma.usageEvent.groupBy({ by: ["requestId"], where: { requestId: { in: requestIds } }, _count: { _all: true } });
    const counts = new Map(rows.map((row) => [row.requestId, row._count._all]));
    const rollups = await database.prisma.usageDailyRollup.aggregate({ _sum: { requestCount: true } });
    return { perRequest: requestIds.map((id) => counts.get(id) ?? 0), rolledUp: Number(rollups._sum.requestCount ?? 0) };
  } finally {
    await database.close();
  }
}

/** The first start prints a generated key; later starts reuse it. */
function firstStartKey(server: ServerProcess): string {
  const apiKey = /API key \(shown once, store it now\): (gak_\w+)/.exec(server.output())?.[1];
  expect(apiKey).toBeDefined();
  return apiKey!;
}

describe("usage durability of the standalone server (embedded SQLite with the writer thread, PostgreSQL)", () => {
  it("journal: every answered call's usage event survives SIGKILL and is stored exactly once after the next start", async () => {
    const directory = createTemporaryDirectory();
    try {
      // Nothing is written to the database before the kill (60 s flush interval): only the journal can save the events.
      const env = { GATEWAY_DATA_DIR: directory.path, GATEWAY_USAGE_DURABILITY: "journal", GATEWAY_USAGE_FLUSH_MS: "60000" };
      const first = await start(env);
      const apiKey = firstStartKey(first);
      const requestIds = await answeredCalls(first.url, apiKey, 120);
      await kill(first.process);

      const second = await start(env);
      expect(second.output()).toContain("Usage journal: wrote 120 usage event(s)");
      expect(await storedUsage(directory.path, requestIds)).toEqual({ perRequest: requestIds.map(() => 1), rolledUp: 120 });
      expect(await stopServerProcess(second.process)).toBe(0);
      // Replayed events are acknowledged: the journal is empty and a third start writes nothing again.
      expect(readdirSync(path.join(directory.path, "usage-journal")).filter((name) => name.endsWith(".jsonl"))).toEqual([]);
      const third = await start(env);
      expect(await storedUsage(directory.path, requestIds)).toEqual({ perRequest: requestIds.map(() => 1), rolledUp: 120 });
      expect(await stopServerProcess(third.process)).toBe(0);
    } finally {
      running?.kill("SIGKILL");
      directory.remove();
    }
  }, 120_000);

  it("journal: a kill while batches are being written stores each event once (the replay skips what was written)", async () => {
    const directory = createTemporaryDirectory();
    try {
      const env = { GATEWAY_DATA_DIR: directory.path, GATEWAY_USAGE_DURABILITY: "journal", GATEWAY_USAGE_FLUSH_MS: "10", GATEWAY_USAGE_BATCH_SIZE: "7" };
      const first = await start(env);
      const apiKey = firstStartKey(first);
      const requestIds = await answeredCalls(first.url, apiKey, 150);
      await kill(first.process);

      const second = await start(env);
      expect(await storedUsage(directory.path, requestIds)).toEqual({ perRequest: requestIds.map(() => 1), rolledUp: 150 });
      expect(await stopServerProcess(second.process)).toBe(0);
    } finally {
      running?.kill("SIGKILL");
      directory.remove();
    }
  }, 120_000);

  it("memory (the default): SIGTERM drains every queued event; SIGKILL loses what was still queued", async () => {
    const directory = createTemporaryDirectory();
    try {
      const env = { GATEWAY_DATA_DIR: directory.path, GATEWAY_USAGE_FLUSH_MS: "60000" };
      const first = await start(env);
      const apiKey = firstStartKey(first);
      const drained = await answeredCalls(first.url, apiKey, 80);
      expect(await stopServerProcess(first.process)).toBe(0);
      expect(await storedUsage(directory.path, drained)).toEqual({ perRequest: drained.map(() => 1), rolledUp: 80 });

      const second = await start(env);
      const lost = await answeredCalls(second.url, apiKey, 30);
      await kill(second.process);
      const third = await start(env);
      expect((await storedUsage(directory.path, lost)).perRequest).toEqual(lost.map(() => 0));
      expect(await stopServerProcess(third.process)).toBe(0);
    } finally {
      running?.kill("SIGKILL");
      directory.remove();
    }
  }, 120_000);

  const postgresqlUrl = process.env.TEST_DATABASE_URL;
  it.skipIf(!postgresqlUrl)("journal on PostgreSQL (TEST_DATABASE_URL): the same after SIGKILL, written on the main thread", async () => {
    const directory = createTemporaryDirectory();
    const schema = `gw_journal_${randomBytes(6).toString("hex")}`;
    const url = new URL(postgresqlUrl!);
    url.searchParams.set("schema", schema);
    try {
      const env = { DATABASE_URL: url.toString(), GATEWAY_DATA_DIR: directory.path, GATEWAY_USAGE_DURABILITY: "journal", GATEWAY_USAGE_FLUSH_MS: "60000" };
      const first = await start(env);
      const apiKey = firstStartKey(first);
      const requestIds = await answeredCalls(first.url, apiKey, 60);
      await kill(first.process);

      const second = await start(env);
      expect(second.output()).toContain("Usage journal: wrote 60 usage event(s)");
      expect(await storedUsage(directory.path, requestIds, url.toString())).toEqual({ perRequest: requestIds.map(() => 1), rolledUp: 60 });
      expect(await stopServerProcess(second.process)).toBe(0);
    } finally {
      running?.kill("SIGKILL");
      directory.remove();
      const cleanup = createDatabase({ url: url.toString() });
      await cleanup.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
      await cleanup.close();
    }
  }, 120_000);
});
