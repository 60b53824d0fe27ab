import type { AccessConnection, AccessPolicy, AccessRoute, AccessSnapshot } from "../access-snapshot.js";

/** A connection shaped like the control-plane snapshot's (extra fields included on purpose). */
export interface FixtureConnection extends AccessConnection {
  kind: "openai" | "anthropic" | "systemone" | "demo";
  baseUrl: string | null;
  credential: string | null;
}

export const organizationId = "org_1";
export const projectId = "project_1";
export const apiKeyId = "key_1";
export const caller = { organizationId, projectId, apiKeyId };

export function connection(overrides: Partial<FixtureConnection> & { name: string }): FixtureConnection {
  return {
    id: `conn_${overrides.name}`,
    organizationId,
    kind: "openai",
    baseUrl: null,
    credential: "secret",
    models: [],
    upstreamModelNames: {},
    enabled: true,
    ...overrides,
  };
}

export function route(overrides: Partial<AccessRoute> & { alias: string }): AccessRoute {
  return {
    id: `route_${overrides.alias}`,
    organizationId,
    strategy: "priority",
    targets: [],
    affinity: { enabled: false, ttlSeconds: 60 },
    ...overrides,
  };
}

let policyCounter = 0;
export function policy(overrides: Partial<AccessPolicy> & { scope: AccessPolicy["scope"] }): AccessPolicy {
  policyCounter += 1;
  const scopeId = overrides.scope === "organization" ? organizationId : overrides.scope === "project" ? projectId : apiKeyId;
  return { id: `policy_${policyCounter}`, organizationId, scopeId, allow: [], deny: [], guardrails: null, ...overrides };
}

export function snapshot(parts: {
  connections?: FixtureConnection[];
  routes?: AccessRoute[];
  policies?: AccessPolicy[];
  version?: string;
}): AccessSnapshot<FixtureConnection, AccessRoute> {
  return {
    version: parts.version ?? "v1",
    connections: parts.connections ?? [],
    routes: parts.routes ?? [],
    policies: parts.policies ?? [],
  };
}

/** The usual two-connection organization. */
export function standardConnections(): FixtureConnection[] {
  return [
    connection({
      name: "openai",
      models: ["openai/gpt-4o", "openai/gpt-4o-mini"],
      upstreamModelNames: { "openai/gpt-4o-mini": "gpt-4o-mini" },
    }),
    connection({ name: "anthropic", kind: "anthropic", models: ["anthropic/claude-sonnet-4", "anthropic/claude-haiku-4"] }),
  ];
}
