import type { ControlPlaneSnapshot } from "@gateway/contracts";
import { hashGatewayApiKey } from "../stages/authenticate.js";

/** A small snapshot for unit tests: one organization, one project, one key, a demo connection. */
export function createTestSnapshot(overrides: Partial<ControlPlaneSnapshot> = {}): ControlPlaneSnapshot {
  return {
    version: "1",
    organizations: [{ id: "org_1", name: "Acme", slug: "acme" }],
    projects: [{ id: "prj_1", organizationId: "org_1", name: "Default", captureContent: false }],
    apiKeys: [
      {
        id: "key_1",
        organizationId: "org_1",
        projectId: "prj_1",
        teamId: null,
        name: "default",
        secretHash: hashGatewayApiKey(testApiKey),
        expiresAt: null,
        createdByUserId: null,
      },
    ],
    connections: [
      {
        id: "con_1",
        organizationId: "org_1",
        name: "demo",
        kind: "demo",
        baseUrl: null,
        credential: null,
        headers: {},
        models: ["demo/decider", "demo/chat"],
        upstreamModelNames: {},
        enabled: true,
        prices: {},
        logprobs: null,
        defaultMaxTokens: null,
        timeouts: {},
        responsesApi: null,
        modelEndpoints: {},
      },
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

/** The secret of the test snapshot's key. */
export const testApiKey = "gak_test_0123456789abcdefghij";
