/**
 * Structural input types of the policy engine. They name only the fields the engine reads,
 * so the pipeline's `ControlPlaneSnapshot` (and its connection and route objects) fit as they are.
 */

/** A provider connection as the engine needs it. */
export interface AccessConnection {
  id: string;
  organizationId: string;
  /** Unique per organization; the `<provider>` segment of qualified model ids. */
  name: string;
  /** Served `<vendor>/<model>` ids. */
  models: readonly string[];
  /** Optional `<vendor>/<model>` -> upstream model name overrides (default: `<model>`, the part after the vendor). */
  upstreamModelNames: Readonly<Record<string, string>>;
  enabled: boolean;
}

/** A routing alias as the engine needs it. */
export interface AccessRoute {
  id: string;
  organizationId: string;
  alias: string;
  strategy: "priority" | "weighted" | "least-latency";
  /** Provider-qualified models, in priority order. */
  targets: readonly { model: string; weight: number }[];
  affinity: { enabled: boolean; ttlSeconds: number };
}

/** A model / guardrail policy row. */
export interface AccessPolicy {
  id: string;
  organizationId: string;
  scope: "organization" | "project" | "key";
  /** The organization, project or API key id the policy is attached to. */
  scopeId: string;
  allow: readonly string[];
  deny: readonly string[];
  /** JSON validated with `guardrailsConfigSchema`; `null`/`undefined` means no guardrails. */
  guardrails: unknown;
}

/** The part of the control-plane snapshot the engine reads. */
export interface AccessSnapshot<
  TConnection extends AccessConnection = AccessConnection,
  TRoute extends AccessRoute = AccessRoute,
> {
  /** Changes whenever any control-plane row changes. */
  version: string;
  connections: readonly TConnection[];
  routes: readonly TRoute[];
  policies: readonly AccessPolicy[];
}

/** Who is asking: the authenticated key's organization, project and id. */
export interface AccessCaller {
  organizationId: string;
  projectId: string;
  apiKeyId: string;
}
