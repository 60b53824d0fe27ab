import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateApiKey } from "@gateway/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayConfigError, parseGatewayConfig } from "../src/config-file/load-gateway-config.js";
import { startGateway } from "../src/start-gateway.js";
import { type MockProvider, openAiChatHandler, startMockProvider } from "./support/mock-provider.js";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { createRecordingLogger, createTemporaryDirectory } from "./support/temporary-directory.js";

const serverEntry = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist/main.js");
const secretKey = randomBytes(32).toString("base64");
const ciKey = generateApiKey().secret;
let openai: MockProvider;

beforeAll(async () => {
  openai = await startMockProvider(openAiChatHandler(() => [{ token: "true", logprob: Math.log(0.9) }, { token: "false", logprob: Math.log(0.1) }]));
});
afterAll(async () => {
  await openai?.close();
});

function configYaml(baseUrl: string): string {
  return `
version: 1
organizations:
  - slug: acme
    name: Acme Inc
    users:
      - email: owner@acme.test
        name: Owner
        role: owner
        password: env:OWNER_PASSWORD
    teams:
      - name: research
    projects:
      - name: Production
        apiKeys:
          - name: ci
            secret: env:CI_KEY
          - name: generated
      - name: Sandbox
        captureContent: true
        apiKeys:
          - name: sandbox
            team: research
    connections:
      - name: openai-main
        kind: openai
        baseUrl: ${baseUrl}/v1
        credential: env:OPENAI_API_KEY
        models: [openai/gpt-4o-mini]
        upstreamModelNames: { openai/gpt-4o-mini: gpt-4o-mini }
        prices: { openai/gpt-4o-mini: { input: 0.15, output: 0.6 } }
        timeouts: { firstByteMs: 90000, idleMs: 45000, maxDurationMs: 0 }
      - name: openai-reasoning
        kind: openai
        baseUrl: ${baseUrl}/v1
        credential: env:OPENAI_API_KEY
        models: [openai/o3]
        logprobs: false
      - name: claude
        kind: anthropic
        credential: env:OPENAI_API_KEY
        models: [anthropic/claude-test]
        defaultMaxTokens: 2048
      - name: demo
        kind: demo
        models: [demo/decide]
    routes:
      - alias: fast
        targets:
          - model: openai-main/openai/gpt-4o-mini
        retry: { maxAttempts: 2 }
    policies:
      - scope: project
        project: Production
        deny: ["demo/**"]
    budgets:
      - name: sandbox cap
        scope: project
        project: Sandbox
        amountUsd: 5
        period: month
        mode: hard
        thresholds: [0.5, 0.8]
    rateLimits:
      - scope: key
        project: Production
        key: ci
        windowSeconds: 60
        requestsPerWindow: 1000
`;
}

describe("configuration file: validation", () => {
  it.each([
    ["a wrong enum value", { organizations: [{ slug: "a", name: "A", connections: [{ name: "x", kind: "gpt" }] }] }, "organizations[0].connections[0].kind"],
    ["an unknown (misspelt) field", { organizations: [{ slug: "a", name: "A", projcts: [] }] }, "organizations[0]"],
    ["a project policy without its project", { organizations: [{ slug: "a", name: "A", policies: [{ scope: "project", deny: ["**"] }] }] }, "organizations[0].policies[0].project"],
    [
      "a timeout out of bounds",
      { organizations: [{ slug: "a", name: "A", connections: [{ name: "x", kind: "openai", timeouts: { idleMs: 0 } }] }] },
      "organizations[0].connections[0].timeouts.idleMs",
    ],
    [
      "an unknown timeout name",
      { organizations: [{ slug: "a", name: "A", connections: [{ name: "x", kind: "openai", timeouts: { readMs: 5 } }] }] },
      "organizations[0].connections[0].timeouts",
    ],
    [
      "a setting the connection's kind does not have",
      { organizations: [{ slug: "a", name: "A", connections: [{ name: "x", kind: "anthropic", settings: { region: "us-east-1" } }] }] },
      "organizations[0].connections[0].settings.region",
    ],
    [
      "a misspelt azure-openai setting",
      { organizations: [{ slug: "a", name: "A", connections: [{ name: "x", kind: "azure-openai", baseUrl: "https://contoso.openai.azure.com", settings: { apiStyle: "v2" } }] }] },
      "organizations[0].connections[0].settings.apiStyle",
    ],
    ["a malformed API key secret", { organizations: [{ slug: "a", name: "A", projects: [{ name: "P", apiKeys: [{ name: "k", secret: "sk-123" }] }] }] }, "organizations[0].projects[0].apiKeys[0].secret"],
  ])("names the field path of %s", (_name, config, fieldPath) => {
    let caught: unknown;
    try {
      parseGatewayConfig(JSON.stringify(config), "gateway.json");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GatewayConfigError);
    expect((caught as GatewayConfigError).fieldPath).toBe(fieldPath);
    expect((caught as Error).message).toContain(fieldPath);
    expect((caught as Error).message).toContain("gateway.json");
  });

  it("keeps a connection's provider settings, with its secret as an env: credential", () => {
    const settings = { deployments: { "openai/gpt-4o": "gpt4o-prod" }, apiStyle: "v1", entra: { tenantId: "contoso", clientId: "11111111-2222-3333-4444-555555555555" } };
    const config = parseGatewayConfig(
      JSON.stringify({ organizations: [{ slug: "a", name: "A", connections: [{ name: "azure", kind: "azure-openai", baseUrl: "https://contoso.openai.azure.com", credential: "env:AZURE_CLIENT_SECRET", settings }] }] }),
      "gateway.json",
    );
    expect(config.organizations[0]?.connections[0]).toMatchObject({ kind: "azure-openai", credential: "env:AZURE_CLIENT_SECRET", settings });
  });

  it("stops the start, naming the field, when an env: reference is not set (nothing is written)", async () => {
    const directory = createTemporaryDirectory();
    try {
      const file = path.join(directory.path, "gateway.yaml");
      writeFileSync(file, configYaml(openai.baseUrl));
      await expect(
        startGateway({
          env: { GATEWAY_SECRET_KEY: secretKey, GATEWAY_CONFIG: file, CI_KEY: ciKey, OWNER_PASSWORD: "owner password 1" },
          settings: { port: 0, dataDirectory: directory.path },
          logger: createRecordingLogger(),
        }),
      ).rejects.toThrow(/organizations\[0\]\.connections\[0\]\.credential: the environment variable OPENAI_API_KEY is not set/);
      const { createDatabase } = await import("@gateway/db");
      const database = createDatabase({ dataDirectory: directory.path });
      expect(await database.prisma.organization.count()).toBe(0);
      await database.close();
    } finally {
      directory.remove();
    }
  });

  it("the server entry exits with status 1 and a message naming the field for an invalid file", () => {
    const directory = createTemporaryDirectory();
    try {
      const file = path.join(directory.path, "gateway.yaml");
      writeFileSync(file, "organizations:\n  - slug: acme\n    name: Acme\n    routes:\n      - alias: fast\n        targets: []\n");
      const result = spawnSync(process.execPath, [serverEntry], {
        env: { PATH: process.env.PATH ?? "", GATEWAY_CONFIG: file, GATEWAY_DATA_DIR: directory.path, GATEWAY_PORT: "0" },
        encoding: "utf8",
        timeout: 20_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("organizations[0].routes[0].targets");
    } finally {
      directory.remove();
    }
  });
});

describe("configuration file: application", () => {
  it("applies everything idempotently; secrets are stored hashed or encrypted; the result serves traffic", async () => {
    const directory = createTemporaryDirectory();
    const file = path.join(directory.path, "gateway.yaml");
    writeFileSync(file, configYaml(openai.baseUrl));
    const env = {
      GATEWAY_SECRET_KEY: secretKey,
      GATEWAY_CONFIG: file,
      CI_KEY: ciKey,
      OPENAI_API_KEY: "sk-config-openai-credential",
      OWNER_PASSWORD: "owner password 1",
    };
    const startOnce = async () => {
      const logger = createRecordingLogger();
      const gateway = await startGateway({ env, settings: { port: 0, host: "127.0.0.1", dataDirectory: directory.path }, logger });
      const prisma = gateway.database.prisma;
      const rows = {
        organizations: await prisma.organization.findMany({ select: { id: true, slug: true, name: true } }),
        users: await prisma.user.findMany({ select: { id: true, email: true, passwordHash: true } }),
        projects: await prisma.project.findMany({ select: { id: true, name: true, captureContent: true } }),
        apiKeys: await prisma.apiKey.findMany({ select: { id: true, name: true, secretHash: true, teamId: true } }),
        connections: await prisma.connection.findMany({
          select: { id: true, name: true, credentialCiphertext: true, logprobs: true, defaultMaxTokens: true, timeouts: true },
          orderBy: { name: "asc" },
        }),
        routes: await prisma.route.findMany({ select: { id: true, alias: true, retryMaxAttempts: true } }),
        policies: await prisma.policy.findMany({ select: { id: true, scope: true, scopeId: true } }),
        budgets: await prisma.budget.findMany({ select: { id: true, amountMicros: true, mode: true } }),
        rateLimits: await prisma.rateLimit.findMany({ select: { id: true, requestsPerWindow: true } }),
        teams: await prisma.team.findMany({ select: { id: true, name: true } }),
      };
      return { gateway, logger, rows };
    };
    try {
      const first = await startOnce();
      const output = first.logger.lines.join("\n");
      expect(output).toMatch(/Generated API key acme\/Production\/generated \(shown once, store it now\): gak_\w+/);
      expect(output).not.toContain(ciKey);
      expect(output).not.toContain("First start");
      expect(first.rows.organizations).toEqual([{ id: expect.any(String), slug: "acme", name: "Acme Inc" }]);
      expect(first.rows.apiKeys).toHaveLength(3);
      expect(first.rows.budgets[0]).toMatchObject({ amountMicros: 5_000_000n, mode: "hard" });
      expect(first.rows.connections.map(({ name, logprobs, defaultMaxTokens, timeouts }) => ({ name, logprobs, defaultMaxTokens, timeouts }))).toEqual([
        { name: "claude", logprobs: null, defaultMaxTokens: 2048, timeouts: {} },
        { name: "demo", logprobs: null, defaultMaxTokens: null, timeouts: {} },
        { name: "openai-main", logprobs: null, defaultMaxTokens: null, timeouts: { firstByteMs: 90_000, idleMs: 45_000, maxDurationMs: 0 } },
        { name: "openai-reasoning", logprobs: false, defaultMaxTokens: null, timeouts: {} },
      ]);
      // The running gateway's snapshot carries them to the adapters.
      const served = first.gateway.runtime.snapshots.current().snapshot.connections.find((connection) => connection.name === "openai-main");
      expect(served).toMatchObject({ logprobs: null, timeouts: { firstByteMs: 90_000, idleMs: 45_000, maxDurationMs: 0 } });
      expect(JSON.stringify(first.rows, (_key, value) => (typeof value === "bigint" ? String(value) : value))).not.toMatch(
        /sk-config-openai-credential|owner password 1|gak_/,
      );

      // The configuration serves traffic: the env key reaches the mock OpenAI with the env credential.
      const decided = await postDecision(first.gateway.url, { apiKey: ciKey, body: decisionBody("fast") });
      expect(decided.status).toBe(200);
      expect(openai.requests.at(-1)?.headers.authorization).toBe("Bearer sk-config-openai-credential");
      // The project policy denies the demo provider to Production.
      expect((await postDecision(first.gateway.url, { apiKey: ciKey, body: decisionBody("demo/demo/decide") })).status).toBe(403);
      await first.gateway.close();

      const second = await startOnce();
      expect(second.logger.lines.join("\n")).not.toContain("Generated API key");
      expect(second.rows).toEqual(first.rows);
      expect((await postDecision(second.gateway.url, { apiKey: ciKey, body: decisionBody("fast") })).status).toBe(200);
      await second.gateway.close();
    } finally {
      directory.remove();
    }
  });
});
