import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { EventEmitter, once } from "node:events";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createMonitorRule, createNotificationChannel, loadSecretBoxFromEnvironment } from "@gateway/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalHttpServer } from "./support/local-http-server.js";
import { recordMonitorCalls } from "./support/monitor-traffic.js";
import { databaseTargets, openTestDatabase, type TestDatabase } from "./support/test-database.js";
import { waitFor } from "./support/wait-for.js";

// Two dashboard processes (the built `dist/main.js`) on one PostgreSQL database, each running the
// monitor evaluator every 250 ms: the lease holder is killed with SIGKILL, and the other one takes
// the lease over once it expires (three intervals). A local webhook receiver counts the notifications.
const mainScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist/main.js");

interface DashboardProcess {
  child: ChildProcess;
  output: string;
}

describe.skipIf(!databaseTargets.includes("postgresql"))("monitor lease between two dashboard processes (postgresql)", () => {
  const secretKey = randomBytes(32).toString("base64");
  const received = new EventEmitter();
  let receiver: Awaited<ReturnType<typeof startLocalHttpServer>>;
  let testDatabase: TestDatabase;
  const processes: DashboardProcess[] = [];

  const start = async (): Promise<DashboardProcess> => {
    const child = spawn(process.execPath, [mainScript], {
      env: {
        PATH: process.env.PATH ?? "",
        DATABASE_URL: testDatabase.url,
        GATEWAY_SECRET_KEY: secretKey,
        DASHBOARD_HOST: "127.0.0.1",
        DASHBOARD_PORT: "0",
        DASHBOARD_MONITOR_INTERVAL_MS: "250",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const running: DashboardProcess = { child, output: "" };
    processes.push(running);
    child.stdout!.on("data", (chunk: Buffer) => (running.output += chunk.toString("utf8")));
    child.stderr!.on("data", (chunk: Buffer) => (running.output += chunk.toString("utf8")));
    await waitFor(
      "a dashboard process to listen",
      () => ({ listening: /dashboard API listening/.test(running.output), exited: child.exitCode }),
      (state) => {
        if (state.exited !== null) throw new Error(`the dashboard process exited:\n${running.output}`);
        return state.listening;
      },
      60_000,
    );
    return running;
  };

  /** The lease row: its holder names the process id (`host:pid:suffix`). */
  const lease = () => testDatabase.database.prisma.evaluatorLease.findUnique({ where: { name: "monitors" } });
  const holderPid = (holder: string) => Number(holder.split(":").at(-2));

  beforeAll(async () => {
    receiver = await startLocalHttpServer((request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
      received.emit("message", JSON.parse(request.body));
    });
    testDatabase = await openTestDatabase("postgresql");
  }, 60_000);

  afterAll(async () => {
    for (const running of processes) {
      if (running.child.exitCode === null && running.child.signalCode === null) {
        const exited = once(running.child, "exit");
        running.child.kill("SIGTERM");
        await exited;
      }
    }
    await receiver?.close();
    await testDatabase?.dispose();
  }, 30_000);

  it("the survivor of a SIGKILLed holder takes the lease over, losing and repeating no notification", async () => {
    const database = testDatabase.database;
    const secretBox = loadSecretBoxFromEnvironment({ env: { GATEWAY_SECRET_KEY: secretKey } });
    const organization = await database.prisma.organization.create({ data: { name: "Lease", slug: `lease-${randomBytes(3).toString("hex")}` } });
    const channel = await createNotificationChannel(
      database,
      { organizationId: organization.id, name: "hook", kind: "webhook", config: { kind: "webhook", url: `${receiver.url}/alerts`, secret: "whsec_0123456789abcdef" } },
      { secretBox },
    );
    const rule = await createMonitorRule(database, {
      organizationId: organization.id,
      name: "errors",
      description: null,
      metric: "error_rate",
      scopeKind: "organization",
      scopeValue: null,
      windowMinutes: 5,
      comparator: "gt",
      threshold: 0.5,
      minCalls: null,
      severity: "critical",
      channelIds: [channel.id],
      renotifyMinutes: null,
      enabled: true,
      mutedUntil: null,
    });
    const messages: Array<{ id: string; type: string; data: { monitor_id: string } }> = [];
    received.on("message", (message) => messages.push(message));
    const nextMessage = (type: string) =>
      new Promise<void>((resolve) => {
        const listener = (message: { type: string }) => {
          if (message.type !== type) return;
          received.off("message", listener);
          resolve();
        };
        received.on("message", listener);
      });

    const [first, second] = await Promise.all([start(), start()]);
    const held = await waitFor("one process to hold the lease", lease, (row) => row !== null && [first, second].some((each) => each.child.pid === holderPid(row.holder)));
    const holder = held!.holder.includes(`:${first.child.pid}:`) ? first : second;
    const survivor = holder === first ? second : first;

    // The holder fires the rule (all calls failing) and notifies once.
    const fired = nextMessage("monitor.fired");
    await recordMonitorCalls(database, { organizationId: organization.id, now: new Date(), calls: 4, errors: 4 });
    await fired;

    // Killed without giving the lease up: the survivor takes it over once it expires, finds the rule firing, and resolves it after recovery.
    const killed = once(holder.child, "exit");
    holder.child.kill("SIGKILL");
    await killed;
    const resolved = nextMessage("monitor.resolved");
    await recordMonitorCalls(database, { organizationId: organization.id, now: new Date(), calls: 20, errors: 0 });
    await resolved;
    const taken = await lease();
    expect(holderPid(taken!.holder)).toBe(survivor.child.pid);

    // Two more evaluations by the survivor (its lease renewed twice) send nothing more.
    const renewedAt = taken!.expiresAt.getTime();
    await waitFor("two more evaluations", lease, (row) => row !== null && row.expiresAt.getTime() >= renewedAt + 400);
    expect(messages.map((message) => message.type)).toEqual(["monitor.fired", "monitor.resolved"]);
    expect(new Set(messages.map((message) => message.id)).size).toBe(2);
    expect(messages.every((message) => message.data.monitor_id === rule.id)).toBe(true);
    const events = await database.prisma.monitorEvent.findMany({ where: { ruleId: rule.id }, orderBy: { occurredAt: "asc" } });
    expect(events.map((event) => [event.kind, event.deliveryPending])).toEqual([
      ["fired", false],
      ["resolved", false],
    ]);
    expect(survivor.child.exitCode).toBeNull();
  }, 90_000);
});
