import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { type Database, createDatabase, createSecretBox, generateApiKey, readControlPlaneVersion } from "@gateway/db";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { applyGatewayConfig } from "../src/config-file/apply-gateway-config.js";
import { GatewayConfigError, parseGatewayConfig } from "../src/config-file/load-gateway-config.js";
import { startGateway } from "../src/start-gateway.js";
import { type MockProvider, anthropicToolUseHandler, openAiChatHandler, startMockProvider } from "./support/mock-provider.js";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { createRecordingLogger, createTemporaryDirectory } from "./support/temporary-directory.js";

const postgresqlUrl = process.env.TEST_DATABASE_URL;
if (!postgresqlUrl && process.env.CI) throw new Error("TEST_DATABASE_URL must be set in CI (configuration file on PostgreSQL).");
if (!postgresqlUrl) console.warn("Skipping the PostgreSQL half of the configuration-file tests: TEST_DATABASE_URL is not set.");

const secretBox = createSecretBox({ keys: [{ id: "test", key: randomBytes(32) }], activeKeyId: "test" });

/** A fresh, migrated database of one provider; `remove()` closes and deletes it. */
async function freshDatabase(provider: "sqlite" | "postgresql"): Promise<{ database: Database; remove(): Promise<void> }> {
  if (provider === "sqlite") {
    const directory = createTemporaryDirectory();
    const database = createDatabase({ dataDirectory: directory.path });
    await database.migrate();
    return {
      database,
      remove: async () => {
        await database.close();
        directory.remove();
      },
    };
  }
  const schema = `gateway_config_${randomBytes(6).toString("hex")}`;
  const url = new URL(postgresqlUrl!);
  url.searchParams.set("schema", schema);
  const database = createDatabase({ url: url.toString(), postgresqlPoolSize: 4 });
  await database.migrate();
  return {
    database,
    remove: async () => {
      await database.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await database.close();
    },
  };
}

const ciKey = generateApiKey().secret;
const env = { CI_KEY: ciKey, OPENAI_API_KEY: "sk-config-openai", OWNER_PASSWORD: "owner password 1" };

/** A file with one of everything; `extra` is merged into the organization. */
function fileText(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    version: 1,
    organizations: [
      {
        slug: "acme",
        name: "Acme Inc",
        users: [{ email: "owner@acme.test", role: "owner", password: "env:OWNER_PASSWORD" }],
        teams: [{ name: "research" }],
        projects: [{ name: "Production", apiKeys: [{ name: "ci", secret: "env:CI_KEY" }, { name: "generated", team: "research" }] }],
        connections: [
          {
            name: "openai-main",
            kind: "openai",
            baseUrl: "http://127.0.0.1:9/v1",
            credential: "env:OPENAI_API_KEY",
            models: ["openai/gpt-4o-mini"],
            prices: { "openai/gpt-4o-mini": { input: 0.15, output: 0.6 } },
            headers: { "x-team": "platform" },
            timeouts: { idleMs: 45_000 },
            modelEndpoints: { "openai/gpt-4o-mini": ["chat"] },
          },
        ],
        routes: [{ alias: "fast", targets: [{ model: "openai-main/openai/gpt-4o-mini", weight: 2 }], affinity: { enabled: true }, retry: { maxAttempts: 2 } }],
        policies: [{ scope: "project", project: "Production", deny: ["demo/**"], allow: ["openai-main/**", "fast"] }],
        budgets: [{ name: "monthly", scope: "organization", amountUsd: 100, period: "month", mode: "hard", thresholds: [0.8, 0.5] }],
        rateLimits: [{ scope: "key", project: "Production", key: "ci", requestsPerWindow: 600, tokensPerWindow: 1_000_000 }],
        ...extra,
      },
    ],
  });
}

async function rowCounts(database: Database): Promise<Record<string, number>> {
  const prisma = database.prisma;
  return {
    organizations: await prisma.organization.count(),
    users: await prisma.user.count(),
    teams: await prisma.team.count(),
    projects: await prisma.project.count(),
    apiKeys: await prisma.apiKey.count(),
    connections: await prisma.connection.count(),
    routes: await prisma.route.count(),
    policies: await prisma.policy.count(),
    budgets: await prisma.budget.count(),
    rateLimits: await prisma.rateLimit.count(),
  };
}

describe("configuration file: shared bounds", () => {
  it.each([
    ["rateLimits[0].tokensPerWindow", { rateLimits: [{ scope: "project", project: "Production", tokensPerWindow: 1_000_000_000_000 }] }],
    ["rateLimits[0].concurrency", { rateLimits: [{ scope: "project", project: "Production", concurrency: 1_000_000 }] }],
    ["rateLimits[0].windowSeconds", { rateLimits: [{ scope: "project", project: "Production", windowSeconds: 100_000, requestsPerWindow: 1 }] }],
    ["budgets[0].amountUsd", { budgets: [{ name: "b", scope: "organization", amountUsd: 1e12, period: "month", mode: "hard" }] }],
    ["routes[0].affinity.ttlSeconds", { routes: [{ alias: "a", targets: [{ model: "c/v/m" }], affinity: { enabled: true, ttlSeconds: 10_000_000 } }] }],
    ["routes[0].targets[0].weight", { routes: [{ alias: "a", targets: [{ model: "c/v/m", weight: 1e9 }] }] }],
    ["connections[0].prices.v/m.contextWindow", { connections: [{ name: "c", kind: "demo", prices: { "v/m": { input: 1, output: 1, contextWindow: 1e12 } } }] }],
  ])("refuses %s beyond the dashboard's bound before anything is written", (field, extra) => {
    let caught: unknown;
    try {
      parseGatewayConfig(fileText(extra), "gateway.json");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GatewayConfigError);
    expect((caught as GatewayConfigError).fieldPath).toBe(`organizations[0].${field}`);
    expect((caught as Error).message).toContain(`organizations[0].${field}`);
  });

  it("accepts the largest values the dashboard accepts", () => {
    const config = parseGatewayConfig(
      fileText({ rateLimits: [{ scope: "project", project: "Production", tokensPerWindow: 1_000_000_000, requestsPerWindow: 1_000_000_000, concurrency: 100_000, windowSeconds: 86_400 }] }),
    );
    expect(config.organizations[0]!.rateLimits[0]).toMatchObject({ tokensPerWindow: 1_000_000_000, concurrency: 100_000 });
  });
});

describe.each([
  { provider: "sqlite" as const, skip: false },
  { provider: "postgresql" as const, skip: !postgresqlUrl },
])("configuration file applied on $provider", ({ provider, skip }) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  beforeEach(async () => {
    if (!skip) fresh = await freshDatabase(provider);
  }, 60_000);
  afterEach(async () => fresh?.remove());

  it.skipIf(skip)("a failure part-way through writes nothing (one transaction)", async () => {
    const before = await readControlPlaneVersion(fresh.database);
    // Everything before the rate limit is valid; the rate limit names a key the file does not have.
    const config = parseGatewayConfig(fileText({ rateLimits: [{ scope: "key", project: "Production", key: "missing", requestsPerWindow: 5 }] }));
    await expect(applyGatewayConfig(config, { db: fresh.database, secretBox, env })).rejects.toThrow(
      /organizations\[0\]\.rateLimits\[0\]\.key: no API key named 'missing'/,
    );
    expect(Object.values(await rowCounts(fresh.database)).every((count) => count === 0), JSON.stringify(await rowCounts(fresh.database))).toBe(true);
    expect(await readControlPlaneVersion(fresh.database)).toBe(before);
  });

  it.skipIf(skip)("applying an unchanged file again writes nothing and keeps the control-plane version", async () => {
    const config = parseGatewayConfig(fileText());
    const first = await applyGatewayConfig(config, { db: fresh.database, secretBox, env });
    expect(first.generatedKeys.map((key) => key.name)).toEqual(["generated"]);
    const counts = await rowCounts(fresh.database);
    expect(counts).toMatchObject({ organizations: 1, projects: 1, apiKeys: 2, connections: 1, routes: 1, policies: 1, budgets: 1, rateLimits: 1 });
    const version = await readControlPlaneVersion(fresh.database);
    const updatedAt = async () => (await fresh.database.prisma.connection.findFirstOrThrow()).updatedAt.getTime();
    const connectionUpdatedAt = await updatedAt();

    const second = await applyGatewayConfig(parseGatewayConfig(fileText()), { db: fresh.database, secretBox, env });
    expect(second.generatedKeys).toEqual([]);
    expect(await readControlPlaneVersion(fresh.database)).toBe(version);
    expect(await rowCounts(fresh.database)).toEqual(counts);
    expect(await updatedAt()).toBe(connectionUpdatedAt);

    // A real change is written (and announced) once.
    await applyGatewayConfig(parseGatewayConfig(fileText({ budgets: [{ name: "monthly", scope: "organization", amountUsd: 150, period: "month", mode: "hard" }] })), {
      db: fresh.database,
      secretBox,
      env,
    });
    const changed = await readControlPlaneVersion(fresh.database);
    expect(BigInt(changed)).toBeGreaterThan(BigInt(version));
    expect((await fresh.database.prisma.budget.findFirstOrThrow()).amountMicros).toBe(150_000_000n);
  });

  it.skipIf(skip)("single sign-on: the secret from env: stored encrypted, mappings by name, unchanged on a second apply", async () => {
    const sso = {
      singleSignOn: {
        issuerUrl: "https://login.acme.test/oauth2/default",
        clientId: "gateway-dashboard",
        clientSecret: "env:SSO_CLIENT_SECRET",
        allowedEmailDomains: ["Acme.test"],
        roleMappings: [{ group: "gateway-admins", role: "admin" }],
        teamMappings: [{ group: "researchers", team: "research" }],
        projectMappings: [{ group: "prod", project: "Production" }],
        jitProvisioning: true,
      },
    };
    const ssoEnv = { ...env, SSO_CLIENT_SECRET: "sso-client-secret-from-env" };
    await applyGatewayConfig(parseGatewayConfig(fileText(sso)), { db: fresh.database, secretBox, env: ssoEnv });
    const stored = await fresh.database.prisma.ssoConfiguration.findFirstOrThrow();
    const team = await fresh.database.prisma.team.findFirstOrThrow({ where: { name: "research" } });
    const project = await fresh.database.prisma.project.findFirstOrThrow({ where: { name: "Production" } });
    expect(stored).toMatchObject({ issuerUrl: "https://login.acme.test/oauth2/default", clientId: "gateway-dashboard", jitProvisioning: true, allowedEmailDomains: ["acme.test"] });
    expect(stored.teamMappings).toEqual([{ group: "researchers", team_id: team.id }]);
    expect(stored.projectMappings).toEqual([{ group: "prod", project_id: project.id }]);
    expect(stored.clientCredentialCiphertext).not.toContain("sso-client-secret-from-env");
    await applyGatewayConfig(parseGatewayConfig(fileText(sso)), { db: fresh.database, secretBox, env: ssoEnv });
    expect((await fresh.database.prisma.ssoConfiguration.findFirstOrThrow()).updatedAt).toEqual(stored.updatedAt);
    await expect(applyGatewayConfig(parseGatewayConfig(fileText(sso)), { db: fresh.database, secretBox, env })).rejects.toThrow(
      /singleSignOn\.clientSecret: the environment variable SSO_CLIENT_SECRET is not set/,
    );
    expect(() => parseGatewayConfig(fileText({ singleSignOn: { ...sso.singleSignOn, issuerUrl: "http://login.acme.test" } }))).toThrow(/https/);
  });

  it.skipIf(skip)("a key declared revoked is stored revoked, and stays revoked", async () => {
    const revokedSecret = generateApiKey().secret;
    const projects = (keys: unknown[]) => ({ projects: [{ name: "Production", apiKeys: [{ name: "ci", secret: "env:CI_KEY" }, { name: "generated", team: "research" }, ...keys] }] });
    await applyGatewayConfig(parseGatewayConfig(fileText(projects([{ name: "leaked", secret: revokedSecret, revoked: true }]))), { db: fresh.database, secretBox, env });
    // A generated key turned revoked in a later file: the same row, now revoked; nothing printed.
    const result = await applyGatewayConfig(
      parseGatewayConfig(fileText(projects([{ name: "leaked", secret: revokedSecret, revoked: true }, { name: "old", revoked: true }]))),
      { db: fresh.database, secretBox, env },
    );
    expect(result.generatedKeys).toEqual([]);
    const keys = await fresh.database.prisma.apiKey.findMany({ select: { name: true, revokedAt: true } });
    expect(Object.fromEntries(keys.map((key) => [key.name, key.revokedAt !== null]))).toEqual({ ci: false, generated: false, leaked: true, old: true });
    const version = await readControlPlaneVersion(fresh.database);
    // Dropping the flag does not bring a key back.
    await applyGatewayConfig(parseGatewayConfig(fileText(projects([{ name: "leaked", secret: revokedSecret }]))), { db: fresh.database, secretBox, env });
    expect((await fresh.database.prisma.apiKey.findFirstOrThrow({ where: { name: "leaked" } })).revokedAt).not.toBeNull();
    expect(await readControlPlaneVersion(fresh.database)).toBe(version);
  });

  it.skipIf(skip)("sets a project's retention and content cap and a key's default metadata, and changes them on a later apply", async () => {
    const file = (metadata: Record<string, string>, activityRetentionDays: number) =>
      fileText({
        projects: [
          {
            name: "Production",
            activityRetentionDays,
            contentRetentionDays: 3,
            contentMaxBytes: 4096,
            apiKeys: [{ name: "ci", secret: "env:CI_KEY", defaultMetadata: metadata }, { name: "generated", team: "research", defaultMetadata: metadata }],
          },
        ],
      });
    await applyGatewayConfig(parseGatewayConfig(file({ pipeline: "nightly" }, 60)), { db: fresh.database, secretBox, env });
    const project = await fresh.database.prisma.project.findFirstOrThrow({ where: { name: "Production" } });
    expect([project.activityRetentionDays, project.contentRetentionDays, project.contentMaxBytes]).toEqual([60, 3, 4096]);
    const metadataOf = async () => Object.fromEntries((await fresh.database.prisma.apiKey.findMany()).map((key) => [key.name, key.defaultMetadata]));
    expect(await metadataOf()).toEqual({ ci: { pipeline: "nightly" }, generated: { pipeline: "nightly" } });
    await applyGatewayConfig(parseGatewayConfig(file({ pipeline: "weekly" }, 90)), { db: fresh.database, secretBox, env });
    expect(await metadataOf()).toEqual({ ci: { pipeline: "weekly" }, generated: { pipeline: "weekly" } });
    expect((await fresh.database.prisma.project.findFirstOrThrow({ where: { name: "Production" } })).activityRetentionDays).toBe(90);
    expect(() => parseGatewayConfig(file({ "bad key": "x" }, 90))).toThrow(GatewayConfigError);
  });
});

describe("configuration file: what the gateway sends upstream", () => {
  let openai: MockProvider;
  let anthropic: MockProvider;
  beforeAll(async () => {
    openai = await startMockProvider(openAiChatHandler(() => [{ token: "true", logprob: Math.log(0.9) }, { token: "false", logprob: Math.log(0.1) }]));
    anthropic = await startMockProvider(anthropicToolUseHandler([0.8, 0.2]));
  });
  afterAll(async () => {
    await openai?.close();
    await anthropic?.close();
  });

  /** Starts a gateway on a file with one organization holding `organization` (and the key `ci`). */
  async function startWith(organization: Record<string, unknown>) {
    const directory = createTemporaryDirectory();
    const file = path.join(directory.path, "gateway.json");
    writeFileSync(file, JSON.stringify({ organizations: [{ slug: "acme", name: "Acme", ...organization }] }));
    const gateway = await startGateway({
      env: { GATEWAY_SECRET_KEY: randomBytes(32).toString("base64"), GATEWAY_CONFIG: file, ...env },
      settings: { port: 0, host: "127.0.0.1", dataDirectory: directory.path },
      logger: createRecordingLogger(),
    });
    return {
      url: gateway.url,
      close: async () => {
        await gateway.close();
        directory.remove();
      },
    };
  }

  it("base URLs work with or without /v1; the upstream model defaults to <model>; explicit names win; defaultMaxTokens and logprobs reach the calls", async () => {
    const gateway = await startWith({
      projects: [{ name: "Production", apiKeys: [{ name: "ci", secret: "env:CI_KEY" }] }],
      connections: [
        { name: "bare", kind: "openai", baseUrl: `${openai.baseUrl}/`, credential: "env:OPENAI_API_KEY", models: ["openai/gpt-4o-mini"] },
        {
          name: "router",
          kind: "openai",
          baseUrl: `${openai.baseUrl}/v1`,
          credential: "env:OPENAI_API_KEY",
          models: ["openai/gpt-4o-mini"],
          upstreamModelNames: { "openai/gpt-4o-mini": "openai/gpt-4o-mini" },
        },
        { name: "claude", kind: "anthropic", baseUrl: `${anthropic.baseUrl}/v1/`, credential: "env:OPENAI_API_KEY", models: ["anthropic/claude-test"], defaultMaxTokens: 2048 },
        { name: "no-logprobs", kind: "openai", baseUrl: openai.baseUrl, credential: "env:OPENAI_API_KEY", models: ["openai/o3"], logprobs: false },
      ],
    });
    try {
      expect((await postDecision(gateway.url, { apiKey: ciKey, body: decisionBody("bare/openai/gpt-4o-mini") })).status).toBe(200);
      expect(openai.requests.at(-1)).toMatchObject({ path: "/v1/chat/completions", body: { model: "gpt-4o-mini" } });
      expect((await postDecision(gateway.url, { apiKey: ciKey, body: decisionBody("router/openai/gpt-4o-mini") })).status).toBe(200);
      expect(openai.requests.at(-1)).toMatchObject({ path: "/v1/chat/completions", body: { model: "openai/gpt-4o-mini" } });
      const claude = await postDecision(gateway.url, { apiKey: ciKey, body: decisionBody("claude/anthropic/claude-test") });
      expect(claude.status, JSON.stringify(claude.body)).toBe(200);
      expect(anthropic.requests.at(-1)).toMatchObject({ path: "/v1/messages", body: { model: "claude-test" } });

      // The file's defaultMaxTokens caps a translated request that sets none; logprobs: false keeps logprobs out of decisions.
      await fetch(`${gateway.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${ciKey}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "claude/anthropic/claude-test", messages: [{ role: "user", content: "Hi" }] }),
      }).then((response) => response.arrayBuffer());
      expect(anthropic.requests.at(-1)).toMatchObject({ path: "/v1/messages", body: { model: "claude-test", max_tokens: 2048 } });
      await postDecision(gateway.url, { apiKey: ciKey, body: decisionBody("no-logprobs/openai/o3") });
      expect(openai.requests.at(-1)).toMatchObject({ path: "/v1/chat/completions", body: { model: "o3" } });
      expect((openai.requests.at(-1)!.body as Record<string, unknown>).logprobs).toBeUndefined();
    } finally {
      await gateway.close();
    }
  });

  it("refuses a key the file declares revoked", async () => {
    const revokedKey = generateApiKey().secret;
    const gateway = await startWith({
      projects: [{ name: "Production", apiKeys: [{ name: "ci", secret: "env:CI_KEY" }, { name: "leaked", secret: revokedKey, revoked: true }] }],
      connections: [{ name: "demo", kind: "demo", models: ["demo/decide"] }],
    });
    try {
      expect((await postDecision(gateway.url, { apiKey: ciKey, body: decisionBody("demo/demo/decide") })).status).toBe(200);
      const refused = await postDecision(gateway.url, { apiKey: revokedKey, body: decisionBody("demo/demo/decide") });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe("invalid_gateway_api_key");
    } finally {
      await gateway.close();
    }
  });
});
