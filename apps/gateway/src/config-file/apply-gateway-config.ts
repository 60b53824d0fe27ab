import {
  type DatabaseClient,
  type SecretBox,
  createApiKey,
  createTeam,
  findUserByEmail,
  getConnectionCredential,
  hashPassword,
  isApiKeyFormat,
  listApiKeys,
  listConnections,
  listTeams,
  listNotificationChannels,
  upsertMonitorRuleByName,
  revokeApiKey,
  runInTransaction,
  upsertApiKeyBySecret,
  updateApiKey,
  parseStoredMetadata,
  upsertBudgetByName,
  upsertConnectionByName,
  upsertMembership,
  upsertOrganizationBySlug,
  upsertPolicyByScope,
  upsertProjectByName,
  upsertRateLimit,
  upsertRouteByAlias,
  upsertUserByEmail,
  upsertSsoConfiguration,
  verifyPassword,
} from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import type { GatewayConfig, GatewayConfigOrganization } from "./gateway-config-schema.js";
import { GatewayConfigError } from "./load-gateway-config.js";

/** A key the configuration named without a secret: generated on first apply, shown once. */
export interface GeneratedConfigKey {
  organization: string;
  project: string;
  name: string;
  secret: string;
}

/** What applying the configuration did. */
export interface ApplyGatewayConfigResult {
  organizations: number;
  /** Keys created with a generated secret (print them once; they are never shown again). */
  generatedKeys: GeneratedConfigKey[];
}

/** Options of {@link applyGatewayConfig}. */
export interface ApplyGatewayConfigOptions {
  db: DatabaseClient;
  secretBox: SecretBox;
  /** Resolves `env:NAME` references. */
  env: Record<string, string | undefined>;
}

/**
 * Applies the declarative configuration in ONE database transaction: every entity is created
 * or updated by its natural key, and a row that already holds the file's values is not written,
 * so applying the same file again writes nothing (and does not bump the control-plane version;
 * entities absent from the file are left alone: delete them in the dashboard). `env:NAME`
 * references are resolved from `env`; credentials are stored encrypted and key secrets and
 * passwords hashed. A problem (a missing environment variable, a scope naming an unknown
 * project, a value the database refuses) throws {@link GatewayConfigError} naming the field path,
 * and nothing of the file is written.
 */
export async function applyGatewayConfig(
  config: GatewayConfig,
  options: ApplyGatewayConfigOptions,
): Promise<ApplyGatewayConfigResult> {
  checkSecretReferences(config, options.env);
  return runInTransaction(
    options.db,
    async (db) => {
      const generatedKeys: GeneratedConfigKey[] = [];
      for (const [index, organization] of config.organizations.entries()) {
        await applyOrganization(organization, `organizations[${index}]`, { ...options, db }, generatedKeys);
      }
      return { organizations: config.organizations.length, generatedKeys };
    },
    // Password hashing runs inside; the default 5 s of an interactive transaction is too short for many users.
    { timeoutMs: 300_000 },
  );
}

async function applyOrganization(
  config: GatewayConfigOrganization,
  path: string,
  options: ApplyGatewayConfigOptions,
  generatedKeys: GeneratedConfigKey[],
): Promise<void> {
  const { db } = options;
  const at = (field: string) => `${path}.${field}`;
  const organization = await step(path, () => upsertOrganizationBySlug(db, { slug: config.slug, name: config.name }));
  const organizationId = organization.id;

  for (const [index, user] of config.users.entries()) {
    const userPath = at(`users[${index}]`);
    const password = user.password === undefined ? undefined : resolveSecret(user.password, `${userPath}.password`, options.env);
    const existing = await findUserByEmail(db, user.email);
    const keepHash = password !== undefined && existing?.passwordHash != null && (await verifyPassword(password, existing.passwordHash));
    const passwordHash = password === undefined || keepHash ? undefined : await hashPassword(password);
    const record = await step(userPath, () =>
      upsertUserByEmail(db, { email: user.email, ...(user.name === undefined ? {} : { name: user.name }), ...(passwordHash ? { passwordHash } : {}) }),
    );
    await step(userPath, () => upsertMembership(db, { organizationId, userId: record.id, role: user.role }));
  }

  const teamIds = new Map((await listTeams(db, organizationId)).map((team) => [team.name, team.id]));
  for (const [index, team] of config.teams.entries()) {
    if (teamIds.has(team.name)) continue;
    const created = await step(at(`teams[${index}]`), () => createTeam(db, { organizationId, name: team.name, defaultRole: "member" }));
    teamIds.set(team.name, created.id);
  }
  const teamId = (name: string | undefined, fieldPath: string): string | null => {
    if (name === undefined) return null;
    const id = teamIds.get(name);
    if (id === undefined) throw new GatewayConfigError(`${fieldPath}: no team named '${name}' in this organization`, fieldPath);
    return id;
  };

  const projectIds = new Map<string, string>();
  const keyIds = new Map<string, string>();
  for (const [projectIndex, project] of config.projects.entries()) {
    const projectPath = at(`projects[${projectIndex}]`);
    const record = await step(projectPath, () =>
      upsertProjectByName(db, {
        organizationId,
        name: project.name,
        captureContent: project.captureContent,
        ...(project.activityRetentionDays === undefined ? {} : { activityRetentionDays: project.activityRetentionDays }),
        ...(project.contentRetentionDays === undefined ? {} : { contentRetentionDays: project.contentRetentionDays }),
        ...(project.contentMaxBytes === undefined ? {} : { contentMaxBytes: project.contentMaxBytes }),
      }),
    );
    projectIds.set(project.name, record.id);
    const existingKeys = await listApiKeys(db, { organizationId, projectId: record.id, includeRevoked: true });
    const revoke = (id: string, keyPath: string) => step(keyPath, () => revokeApiKey(db, { organizationId, id }));
    for (const [keyIndex, key] of project.apiKeys.entries()) {
      const keyPath = `${projectPath}.apiKeys[${keyIndex}]`;
      const input = {
        organizationId,
        projectId: record.id,
        name: key.name,
        teamId: teamId(key.team, `${keyPath}.team`),
        expiresAt: key.expiresAt ?? null,
        ...(key.defaultMetadata === undefined ? {} : { defaultMetadata: key.defaultMetadata }),
      };
      if (key.secret !== undefined) {
        const secret = resolveSecret(key.secret, `${keyPath}.secret`, options.env);
        if (!isApiKeyFormat(secret)) {
          throw new GatewayConfigError(`${keyPath}.secret: the value is not a gateway key ('gak_' followed by at least 43 letters or digits)`, `${keyPath}.secret`);
        }
        const { apiKey } = await step(keyPath, () => upsertApiKeyBySecret(db, { ...input, secret }));
        // Revocation is permanent: a revoked key stays revoked when the file drops `revoked`.
        if (key.revoked && apiKey.revokedAt === null) await revoke(apiKey.id, keyPath);
        keyIds.set(`${project.name}\u0000${key.name}`, apiKey.id);
        continue;
      }
      const active = existingKeys.find((candidate) => candidate.name === key.name && candidate.revokedAt === null);
      const existing = key.revoked ? (active ?? existingKeys.find((candidate) => candidate.name === key.name)) : active;
      if (existing) {
        if (key.revoked && existing.revokedAt === null) await revoke(existing.id, keyPath);
        else if (existing.revokedAt === null && key.defaultMetadata !== undefined && JSON.stringify(parseStoredMetadata(existing.defaultMetadata)) !== JSON.stringify(key.defaultMetadata)) {
          await step(keyPath, () => updateApiKey(db, organizationId, existing.id, { defaultMetadata: key.defaultMetadata! }));
        }
        keyIds.set(`${project.name}\u0000${key.name}`, existing.id);
        continue;
      }
      const created = await step(keyPath, () => createApiKey(db, input));
      keyIds.set(`${project.name}\u0000${key.name}`, created.apiKey.id);
      // A key declared revoked is stored revoked at once; its secret is of no use and is not printed.
      if (key.revoked) await revoke(created.apiKey.id, keyPath);
      else generatedKeys.push({ organization: config.slug, project: project.name, name: key.name, secret: created.secret });
    }
  }

  const existingConnections = new Map((await listConnections(db, organizationId)).map((connection) => [connection.name, connection]));
  for (const [index, connection] of config.connections.entries()) {
    const connectionPath = at(`connections[${index}]`);
    const credential =
      connection.credential === undefined ? null : resolveSecret(connection.credential, `${connectionPath}.credential`, options.env);
    const existing = existingConnections.get(connection.name);
    // Re-encrypting an unchanged credential would rewrite the row (and reload every gateway).
    const unchanged =
      existing !== undefined && (await getConnectionCredential(db, organizationId, existing.id, { secretBox: options.secretBox })) === credential;
    await step(connectionPath, () =>
      upsertConnectionByName(
        db,
        {
          organizationId,
          name: connection.name,
          kind: connection.kind,
          baseUrl: connection.baseUrl ?? null,
          ...(unchanged ? {} : { credential }),
          headers: connection.headers,
          models: connection.models,
          upstreamModelNames: connection.upstreamModelNames,
          prices: connection.prices,
          enabled: connection.enabled,
          logprobs: connection.logprobs ?? null,
          defaultMaxTokens: connection.defaultMaxTokens ?? null,
          timeouts: connection.timeouts,
          responsesApi: connection.responsesApi ?? null,
          modelEndpoints: connection.modelEndpoints,
          settings: connection.settings,
        },
        { secretBox: options.secretBox },
      ),
    );
  }

  for (const [index, route] of config.routes.entries()) {
    await step(at(`routes[${index}]`), () =>
      upsertRouteByAlias(db, {
        organizationId,
        alias: route.alias,
        strategy: route.strategy,
        targets: route.targets,
        affinity: route.affinity,
        retry: route.retry,
      }),
    );
  }

  /** The id a scoped entry (policy, budget, rate limit) is attached to. */
  const scopeId = (entry: { scope: string; project?: string; key?: string; team?: string }, entryPath: string): string => {
    switch (entry.scope) {
      case "organization":
        return organizationId;
      case "team":
        return teamId(entry.team, `${entryPath}.team`) as string;
      case "project": {
        const id = projectIds.get(entry.project ?? "");
        if (id === undefined) throw unknownReference(`${entryPath}.project`, "project", entry.project);
        return id;
      }
      default: {
        if (!projectIds.has(entry.project ?? "")) throw unknownReference(`${entryPath}.project`, "project", entry.project);
        const id = keyIds.get(`${entry.project}\u0000${entry.key}`);
        if (id === undefined) throw unknownReference(`${entryPath}.key`, "API key", entry.key);
        return id;
      }
    }
  };

  for (const [index, policy] of config.policies.entries()) {
    const policyPath = at(`policies[${index}]`);
    const id = scopeId(policy, policyPath);
    await step(policyPath, () =>
      upsertPolicyByScope(db, {
        organizationId,
        scope: policy.scope,
        scopeId: id,
        allow: policy.allow,
        deny: policy.deny,
        guardrails: policy.guardrails ?? null,
      }),
    );
  }
  for (const [index, budget] of config.budgets.entries()) {
    const budgetPath = at(`budgets[${index}]`);
    const id = scopeId(budget, budgetPath);
    await step(budgetPath, () =>
      upsertBudgetByName(db, {
        organizationId,
        name: budget.name,
        scope: budget.scope,
        scopeId: id,
        amountMicros: Math.round(budget.amountUsd * 1_000_000),
        period: budget.period,
        mode: budget.mode,
        thresholds: budget.thresholds,
      }),
    );
  }
  await applyMonitors(config.monitors, at, {
    db,
    organizationId,
    teamId: (teamName, fieldPath) => teamId(teamName, fieldPath) as string,
    projectId: (projectName, fieldPath) => {
      const id = projectIds.get(projectName ?? "");
      if (id === undefined) throw unknownReference(fieldPath, "project", projectName);
      return id;
    },
    keyId: (projectName, keyName, fieldPath) => {
      const id = keyIds.get(`${projectName}\u0000${keyName}`);
      if (id === undefined) throw unknownReference(fieldPath, "API key", keyName);
      return id;
    },
  });
  if (config.singleSignOn !== undefined) {
    await applySingleSignOn(
      config.singleSignOn,
      at("singleSignOn"),
      {
        organizationId,
        teamId: (teamName, fieldPath) => teamId(teamName, fieldPath) as string,
        projectId: (projectName, fieldPath) => {
          const id = projectIds.get(projectName);
          if (id === undefined) throw unknownReference(fieldPath, "project", projectName);
          return id;
        },
      },
      options,
    );
  }
  for (const [index, limit] of config.rateLimits.entries()) {
    const limitPath = at(`rateLimits[${index}]`);
    const id = scopeId(limit, limitPath);
    await step(limitPath, () =>
      upsertRateLimit(db, {
        organizationId,
        scope: limit.scope,
        scopeId: id,
        windowSeconds: limit.windowSeconds,
        requestsPerWindow: limit.requestsPerWindow,
        tokensPerWindow: limit.tokensPerWindow,
        concurrency: limit.concurrency,
      }),
    );
  }
}

/** Writes the organization's single sign-on (mappings by team and project name); an unchanged one is not written. */
async function applySingleSignOn(
  config: NonNullable<GatewayConfigOrganization["singleSignOn"]>,
  path: string,
  context: { organizationId: string; teamId(name: string, fieldPath: string): string; projectId(name: string, fieldPath: string): string },
  options: ApplyGatewayConfigOptions,
): Promise<void> {
  const credential =
    config.clientAuthMethod === "private_key_jwt"
      ? resolveSecret(config.privateKey!, `${path}.privateKey`, options.env)
      : resolveSecret(config.clientSecret!, `${path}.clientSecret`, options.env);
  await step(path, () =>
    upsertSsoConfiguration(
      options.db,
      {
        organizationId: context.organizationId,
        enabled: config.enabled,
        issuerUrl: config.issuerUrl,
        clientId: config.clientId,
        clientAuthMethod: config.clientAuthMethod,
        clientCredential: credential,
        scopes: config.scopes,
        allowedEmailDomains: config.allowedEmailDomains,
        groupsClaim: config.groupsClaim,
        roleMappings: config.roleMappings,
        teamMappings: config.teamMappings.map((mapping, index) => ({ group: mapping.group, team_id: context.teamId(mapping.team, `${path}.teamMappings[${index}].team`) })),
        projectMappings: config.projectMappings.map((mapping, index) => ({
          group: mapping.group,
          project_id: context.projectId(mapping.project, `${path}.projectMappings[${index}].project`),
        })),
        jitProvisioning: config.jitProvisioning,
        defaultRole: config.defaultRole,
      },
      { secretBox: options.secretBox },
    ),
  );
}

/** Resolves every `env:` reference before anything is written, so a missing variable changes nothing. */
function checkSecretReferences(config: GatewayConfig, env: Record<string, string | undefined>): void {
  for (const [organizationIndex, organization] of config.organizations.entries()) {
    const path = `organizations[${organizationIndex}]`;
    for (const [index, user] of organization.users.entries()) {
      if (user.password !== undefined) resolveSecret(user.password, `${path}.users[${index}].password`, env);
    }
    for (const [projectIndex, project] of organization.projects.entries()) {
      for (const [index, key] of project.apiKeys.entries()) {
        if (key.secret !== undefined) resolveSecret(key.secret, `${path}.projects[${projectIndex}].apiKeys[${index}].secret`, env);
      }
    }
    for (const [index, connection] of organization.connections.entries()) {
      if (connection.credential !== undefined) resolveSecret(connection.credential, `${path}.connections[${index}].credential`, env);
    }
    const sso = organization.singleSignOn;
    if (sso?.clientSecret !== undefined) resolveSecret(sso.clientSecret, `${path}.singleSignOn.clientSecret`, env);
    if (sso?.privateKey !== undefined) resolveSecret(sso.privateKey, `${path}.singleSignOn.privateKey`, env);
  }
}

/** Resolves `env:NAME` (the variable must be set and non-empty); other values are taken as they are. */
export function resolveSecret(value: string, fieldPath: string, env: Record<string, string | undefined>): string {
  if (!value.startsWith("env:")) return value;
  const name = value.slice(4);
  const resolved = env[name];
  if (resolved === undefined || resolved === "") {
    throw new GatewayConfigError(`${fieldPath}: the environment variable ${name} is not set`, fieldPath);
  }
  return resolved;
}

/** Resolves the names of an organization's monitors (channels and connections by name) and upserts each by name. */
async function applyMonitors(
  monitors: GatewayConfigOrganization["monitors"],
  at: (field: string) => string,
  context: {
    db: DatabaseClient;
    organizationId: string;
    teamId(name: string | undefined, fieldPath: string): string;
    projectId(name: string | undefined, fieldPath: string): string;
    keyId(project: string | undefined, key: string | undefined, fieldPath: string): string;
  },
): Promise<void> {
  if (monitors.length === 0) return;
  const { db, organizationId } = context;
  const channelIds = new Map((await listNotificationChannels(db, organizationId)).map((channel) => [channel.name, channel.id]));
  const connectionIds = new Map((await listConnections(db, organizationId)).map((connection) => [connection.name, connection.id]));
  for (const [index, monitor] of monitors.entries()) {
    const monitorPath = at(`monitors[${index}]`);
    const channels = monitor.channels.map((channelName, channelIndex) => {
      const id = channelIds.get(channelName);
      if (id === undefined) {
        throw new GatewayConfigError(`${monitorPath}.channels[${channelIndex}]: no notification channel named '${channelName}' in this organization`, `${monitorPath}.channels[${channelIndex}]`);
      }
      return id;
    });
    const scopeKind = monitor.scope === "key" ? "api_key" : monitor.scope === "clientLabel" ? "client_label" : monitor.scope;
    let scopeValue: string | null = null;
    if (!monitor.each) {
      if (monitor.scope === "project") scopeValue = context.projectId(monitor.project, `${monitorPath}.project`);
      else if (monitor.scope === "team") scopeValue = context.teamId(monitor.team, `${monitorPath}.team`);
      else if (monitor.scope === "key") {
        context.projectId(monitor.project, `${monitorPath}.project`);
        scopeValue = context.keyId(monitor.project, monitor.key, `${monitorPath}.key`);
      } else if (monitor.scope === "connection") {
        scopeValue = connectionIds.get(monitor.connection ?? "") ?? null;
        if (scopeValue === null) throw unknownReference(`${monitorPath}.connection`, "connection", monitor.connection);
      } else if (monitor.scope === "model") scopeValue = monitor.model ?? null;
      else if (monitor.scope === "clientLabel") scopeValue = monitor.clientLabel ?? null;
    }
    await step(monitorPath, () =>
      upsertMonitorRuleByName(db, {
        organizationId,
        name: monitor.name,
        description: monitor.description ?? null,
        metric: monitor.metric,
        scopeKind,
        scopeValue,
        windowMinutes: monitor.windowMinutes,
        comparator: monitor.comparator,
        threshold: monitor.threshold,
        minCalls: monitor.minCalls,
        severity: monitor.severity,
        channelIds: channels,
        renotifyMinutes: monitor.renotifyMinutes,
        enabled: monitor.enabled,
      }),
    );
  }
}

/** Runs one database write; an invalid value it reports is rethrown naming the config field. */
async function step<T>(path: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (GatewayError.isInstance(error) && error.status < 500) {
      const fieldPath = error.param === null ? path : `${path}.${String(error.param)}`;
      throw new GatewayConfigError(`${fieldPath}: ${error.message}`, fieldPath);
    }
    throw error;
  }
}

function unknownReference(fieldPath: string, kind: string, name: string | undefined): GatewayConfigError {
  return new GatewayConfigError(`${fieldPath}: no ${kind} named '${name ?? ""}' in this configuration`, fieldPath);
}
