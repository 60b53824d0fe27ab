import type { DatabaseClient } from "./create-database.js";
import { POLICY_SCOPES } from "./enums.js";
import { parseJsonColumn, stringArraySchema } from "./json-values.js";
import { holdsValues, requireOneOf, translateWrite } from "./repository-support.js";

export type PolicyScope = (typeof POLICY_SCOPES)[number];

/** A model policy with guardrails for one scope (one policy per scope). */
export interface PolicyRecord {
  id: string;
  organizationId: string;
  scope: PolicyScope;
  scopeId: string;
  name: string;
  allow: string[];
  deny: string[];
  /** Validated by `@gateway/policy-engine`. */
  guardrails: unknown;
  createdAt: Date;
  updatedAt: Date;
}

export interface PolicyInput {
  organizationId: string;
  scope: string;
  /** The organization, project or key id the policy applies to. */
  scopeId: string;
  name?: string;
  allow?: string[];
  deny?: string[];
  guardrails?: unknown;
}

type PolicyRow = Awaited<ReturnType<DatabaseClient["prisma"]["policy"]["findFirstOrThrow"]>>;
const toRecord = (row: PolicyRow): PolicyRecord => ({
  ...row,
  scope: requireOneOf(POLICY_SCOPES, row.scope, "scope"),
  allow: parseJsonColumn(stringArraySchema, row.allow, `policies ${row.id} allow`),
  deny: parseJsonColumn(stringArraySchema, row.deny, `policies ${row.id} deny`),
  guardrails: row.guardrails,
});

function createData(input: PolicyInput) {
  return {
    organizationId: input.organizationId,
    scope: requireOneOf(POLICY_SCOPES, input.scope, "scope"),
    scopeId: input.scopeId,
    name: input.name ?? "",
    allow: input.allow ?? [],
    deny: input.deny ?? [],
    guardrails: (input.guardrails ?? {}) as object,
  };
}

/** Creates the policy of a scope; 409 when that scope already has one. */
export async function createPolicy(db: DatabaseClient, input: PolicyInput): Promise<PolicyRecord> {
  return toRecord(await translateWrite("policy for this scope", () => db.prisma.policy.create({ data: createData(input) })));
}

/** Declarative config: creates or replaces the policy of (organization, scope, scopeId). */
export async function upsertPolicyByScope(db: DatabaseClient, input: PolicyInput): Promise<PolicyRecord> {
  const data = createData(input);
  const where = { organizationId_scope_scopeId: { organizationId: data.organizationId, scope: data.scope, scopeId: data.scopeId } };
  const update = { name: data.name, allow: data.allow, deny: data.deny, guardrails: data.guardrails };
  const existing = await db.prisma.policy.findUnique({ where });
  if (existing && holdsValues(existing, update)) return toRecord(existing);
  return toRecord(await db.prisma.policy.upsert({ where, create: data, update }));
}

export async function listPolicies(db: DatabaseClient, organizationId: string): Promise<PolicyRecord[]> {
  return (await db.prisma.policy.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map(toRecord);
}

export async function getPolicy(db: DatabaseClient, organizationId: string, id: string): Promise<PolicyRecord | null> {
  const row = await db.prisma.policy.findFirst({ where: { id, organizationId } });
  return row ? toRecord(row) : null;
}

export async function updatePolicy(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  changes: { name?: string; allow?: string[]; deny?: string[]; guardrails?: unknown },
): Promise<PolicyRecord> {
  const data: Record<string, unknown> = { ...changes };
  if (changes.guardrails === undefined) delete data.guardrails;
  return toRecord(await translateWrite("policy", () => db.prisma.policy.update({ where: { id, organizationId }, data })));
}

export async function deletePolicy(db: DatabaseClient, organizationId: string, id: string): Promise<void> {
  await translateWrite("policy", () => db.prisma.policy.delete({ where: { id, organizationId } }));
}
