import type { ControlPlaneSnapshot, SnapshotConnection } from "@gateway/contracts";
import { createHash } from "node:crypto";


/** The secret of the test key (project `prj_main`). */
export const testApiKey = "gak_test_main_0123456789abcdefgh";
/** A second key of the same organization, in another project. */
export const otherProjectApiKey = "gak_test_other_0123456789abcdefg";

const hash = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** Base URLs of the mock providers the snapshot's connections point at. */
export interface MockProviderUrls {
  openai?: string;
  anthropic?: string;
  systemone?: string;
}

/**
 * One organization with two projects and keys, a `demo` connection, and one connection per
 * mock provider (`openai-mock`, `anthropic-mock`, `native`).
 */
export function createGatewayTestSnapshot(
  urls: MockProviderUrls = {},
  overrides: Partial<ControlPlaneSnapshot> = {},
): ControlPlaneSnapshot {
  const connection = (fields: Partial<SnapshotConnection> & Pick<SnapshotConnection, "id" | "name" | "kind">): SnapshotConnection => ({
    organizationId: "org_1",
    baseUrl: null,
    credential: null,
    headers: {},
    models: [],
    upstreamModelNames: {},
    enabled: true,
    prices: {},
    logprobs: null,
    defaultMaxTokens: null,
    timeouts: {},
    responsesApi: null,
    modelEndpoints: {},
    ...fields,
  });
  return {
    version: `v${Math.random()}`,
    organizations: [{ id: "org_1", name: "Acme", slug: "acme" }],
    projects: [
      { id: "prj_main", organizationId: "org_1", name: "Main", captureContent: true },
      { id: "prj_other", organizationId: "org_1", name: "Other", captureContent: false },
    ],
    apiKeys: [
      {
        id: "key_main",
        organizationId: "org_1",
        projectId: "prj_main",
        teamId: null,
        name: "main",
        secretHash: hash(testApiKey),
        expiresAt: null,
        createdByUserId: null,
      },
      {
        id: "key_other",
        organizationId: "org_1",
        projectId: "prj_other",
        teamId: null,
        name: "other",
        secretHash: hash(otherProjectApiKey),
        expiresAt: null,
        createdByUserId: null,
      },
    ],
    connections: [
      connection({ id: "con_demo", name: "demo", kind: "demo", models: ["demo/decider"] }),
      connection({
        id: "con_openai",
        name: "openai-mock",
        kind: "openai",
        baseUrl: urls.openai === undefined ? null : `${urls.openai}/v1`,
        credential: "sk-upstream-secret-openai",
        models: ["openai/gpt-4o-mini"],
        upstreamModelNames: { "openai/gpt-4o-mini": "gpt-4o-mini" },
        prices: { "openai/gpt-4o-mini": { input: 0.15, output: 0.6 } },
      }),
      connection({
        id: "con_anthropic",
        name: "anthropic-mock",
        kind: "anthropic",
        baseUrl: urls.anthropic ?? null,
        credential: "sk-ant-upstream-secret",
        models: ["anthropic/claude-sonnet-4"],
        upstreamModelNames: { "anthropic/claude-sonnet-4": "claude-sonnet-4-20250514" },
      }),
      connection({
        id: "con_native",
        name: "native",
        kind: "systemone",
        baseUrl: urls.systemone ?? null,
        credential: "so-upstream-secret",
        models: ["systemone/s1"],
      }),
    ],
    routes: [],
    policies: [],
    budgets: [],
    rateLimits: [],
    mcpServers: [],
    mcpTokens: [],
    ...overrides,
  };
}
