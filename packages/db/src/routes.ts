import { GatewayError } from "@gateway/errors";
import type { DatabaseClient } from "./create-database.js";
import { ROUTE_STRATEGIES } from "./enums.js";
import { parseJsonColumn, routeTargetsSchema } from "./json-values.js";
import { holdsValues, requireOneOf, translateWrite } from "./repository-support.js";

export type RouteStrategy = (typeof ROUTE_STRATEGIES)[number];

export interface RouteRecord {
  id: string;
  organizationId: string;
  alias: string;
  strategy: RouteStrategy;
  targets: { model: string; weight: number }[];
  affinity: { enabled: boolean; ttlSeconds: number };
  retry: { maxAttempts: number };
  createdAt: Date;
  updatedAt: Date;
}

export interface RouteInput {
  organizationId: string;
  /** A model name without slashes. */
  alias: string;
  strategy: string;
  targets: { model: string; weight?: number }[];
  affinity?: { enabled: boolean; ttlSeconds?: number };
  retry?: { maxAttempts: number };
}

const ALIAS = /^[A-Za-z0-9._:-]{1,128}$/;

type RouteRow = Awaited<ReturnType<DatabaseClient["prisma"]["route"]["findFirstOrThrow"]>>;
const toRecord = (row: RouteRow): RouteRecord => ({
  id: row.id,
  organizationId: row.organizationId,
  alias: row.alias,
  strategy: requireOneOf(ROUTE_STRATEGIES, row.strategy, "strategy"),
  targets: parseJsonColumn(routeTargetsSchema, row.targets, `routes ${row.id} targets`),
  affinity: { enabled: row.affinityEnabled, ttlSeconds: row.affinityTtlSeconds },
  retry: { maxAttempts: row.retryMaxAttempts },
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

function toData(input: Partial<Omit<RouteInput, "organizationId">>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (input.alias !== undefined) {
    if (!ALIAS.test(input.alias)) throw new GatewayError("invalid_request", { message: "alias must be 1-128 characters without '/'", param: "alias" });
    data.alias = input.alias;
  }
  if (input.strategy !== undefined) data.strategy = requireOneOf(ROUTE_STRATEGIES, input.strategy, "strategy");
  if (input.targets !== undefined) {
    if (input.targets.length === 0) throw new GatewayError("invalid_request", { message: "targets must not be empty", param: "targets" });
    data.targets = input.targets.map((target) => ({ model: target.model, weight: target.weight ?? 1 }));
  }
  if (input.affinity !== undefined) {
    data.affinityEnabled = input.affinity.enabled;
    if (input.affinity.ttlSeconds !== undefined) data.affinityTtlSeconds = Math.max(1, Math.floor(input.affinity.ttlSeconds));
  }
  if (input.retry !== undefined) data.retryMaxAttempts = Math.max(1, Math.floor(input.retry.maxAttempts));
  return data;
}

/** Creates a route; 409 when the alias exists in the organization. */
export async function createRoute(db: DatabaseClient, input: RouteInput): Promise<RouteRecord> {
  const data = { ...toData(input), organizationId: input.organizationId } as Parameters<DatabaseClient["prisma"]["route"]["create"]>[0]["data"];
  return toRecord(await translateWrite("route with this alias", () => db.prisma.route.create({ data })));
}

/** Declarative config: creates or replaces the route with this alias. */
export async function upsertRouteByAlias(db: DatabaseClient, input: RouteInput): Promise<RouteRecord> {
  const { organizationId, ...rest } = input;
  const data = toData(rest);
  const where = { organizationId_alias: { organizationId, alias: input.alias } };
  const existing = await db.prisma.route.findUnique({ where });
  if (existing && holdsValues(existing, data)) return toRecord(existing);
  return toRecord(
    await db.prisma.route.upsert({
      where,
      create: { ...data, organizationId } as Parameters<DatabaseClient["prisma"]["route"]["create"]>[0]["data"],
      update: data,
    }),
  );
}

export async function listRoutes(db: DatabaseClient, organizationId: string): Promise<RouteRecord[]> {
  return (await db.prisma.route.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map(toRecord);
}

export async function getRoute(db: DatabaseClient, organizationId: string, id: string): Promise<RouteRecord | null> {
  const row = await db.prisma.route.findFirst({ where: { id, organizationId } });
  return row ? toRecord(row) : null;
}

export async function updateRoute(db: DatabaseClient, organizationId: string, id: string, changes: Partial<Omit<RouteInput, "organizationId">>): Promise<RouteRecord> {
  return toRecord(await translateWrite("route", () => db.prisma.route.update({ where: { id, organizationId }, data: toData(changes) })));
}

export async function deleteRoute(db: DatabaseClient, organizationId: string, id: string): Promise<void> {
  await translateWrite("route", () => db.prisma.route.delete({ where: { id, organizationId } }));
}
