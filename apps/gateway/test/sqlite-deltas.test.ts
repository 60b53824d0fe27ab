import { randomBytes } from "node:crypto";
import { type Database, createApiKey, generateApiKey } from "@gateway/db";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningGateway, startGateway } from "../src/start-gateway.js";
import { createRecordingLogger, createTemporaryDirectory } from "./support/temporary-directory.js";

// The embedded default: one process, SQLite (no LISTEN, no Redis), counters in memory. Changes
// arrive by the version poll and are applied as deltas from the change log.
let directory: ReturnType<typeof createTemporaryDirectory>;
let gateway: RunningGateway<Database>;
const apiKey = generateApiKey().secret;

beforeAll(async () => {
  directory = createTemporaryDirectory();
  gateway = await startGateway({
    env: { GATEWAY_SECRET_KEY: randomBytes(32).toString("base64"), GATEWAY_API_KEY: apiKey, GATEWAY_SNAPSHOT_POLL_MS: "50" },
    settings: { port: 0, host: "127.0.0.1", dataDirectory: directory.path, metricsPort: 0, metricsHost: "127.0.0.1" },
    logger: createRecordingLogger(),
  });
}, 30_000);

afterAll(async () => {
  await gateway?.close();
  directory?.remove();
});

const listModels = (secret: string) => fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${secret}` } }).then((response) => response.status);

async function counted(name: string): Promise<number> {
  const text = await gateway.metrics!.render();
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`))
    .reduce((total, line) => total + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
}

describe("the embedded SQLite gateway", () => {
  it("serves a created key and refuses a key revoked by raw SQL as deltas, without a full reload", async () => {
    expect(await listModels(apiKey)).toBe(200);
    const fullReloads = await counted("gateway_snapshot_reloads_total");
    const key = await gateway.database.prisma.apiKey.findFirstOrThrow({ where: { revokedAt: null } });
    const created = await createApiKey(gateway.database, { organizationId: key.organizationId, projectId: key.projectId, name: "second" });
    await vi.waitFor(async () => expect(await listModels(created.secret)).toBe(200), { timeout: 3000, interval: 20 });

    await gateway.database.prisma.$executeRawUnsafe("UPDATE api_keys SET revoked_at = CURRENT_TIMESTAMP WHERE id = ?", key.id);
    await vi.waitFor(async () => expect(await listModels(apiKey)).toBe(401), { timeout: 3000, interval: 20 });
    expect(await listModels(created.secret)).toBe(200);
    expect(await counted("gateway_snapshot_reloads_total")).toBe(fullReloads);
    expect(await counted("gateway_snapshot_deltas_total")).toBeGreaterThanOrEqual(2);
  });
});
