import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createSecretBox, hashPassword, type Database, type SecretBox } from "@gateway/db";
import { createDashboardApp, type DashboardApp, type DashboardDependencies } from "../../src/create-dashboard-app.js";
import { createSilentLogger } from "../../src/dashboard-logger.js";
import { createDashboardServer } from "../../src/http/create-dashboard-server.js";
import { defaultDashboardSettings, type DashboardSettings } from "../../src/dashboard-settings.js";
import type { Role } from "../../src/auth/role-permissions.js";
import { openTestDatabase, type DatabaseTarget } from "./test-database.js";

/** The origin the test dashboard considers its own. */
export const dashboardOrigin = "http://dashboard.test";

/** Cheap scrypt parameters for seeded test users (login verifies whatever parameters a hash carries). */
const testHashParameters = { N: 1024, r: 8, p: 1 };

/** An answer read in full. */
export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** Options of one test request. */
export interface TestRequestOptions {
  body?: unknown;
  cookie?: string;
  /** Default: the dashboard origin for unsafe methods; `null` sends none. */
  origin?: string | null;
  headers?: Record<string, string>;
}

/** A running dashboard on a temp database, with seeding helpers. */
export interface TestDashboard {
  dashboard: DashboardApp;
  database: Database;
  /** The database's URL (for another handle on it, e.g. a gateway's). */
  databaseUrl: string;
  /** The secret box the dashboard encrypts with (a gateway on the same database decrypts with it). */
  secretBox: SecretBox;
  url: string;
  request(method: string, path: string, options?: TestRequestOptions): Promise<TestResponse>;
  /** Creates an organization. */
  createOrganization(input?: { name?: string; authenticationRequired?: "password" | "sso" }): Promise<{ id: string; name: string; slug: string }>;
  /** Creates an account (or reuses it by email) and its membership. */
  createMember(input: { organizationId: string; role: Role; email?: string; password?: string; name?: string }): Promise<{ userId: string; email: string; password: string }>;
  /** Logs in and answers the cookie header value `gateway_session=...`. */
  login(email: string, password: string, organizationId?: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts a dashboard for tests on port 0. */
export async function startTestDashboard(
  options: { target?: DatabaseTarget; settings?: Partial<DashboardSettings>; dependencies?: Partial<DashboardDependencies> } = {},
): Promise<TestDashboard> {
  const testDatabase = await openTestDatabase(options.target ?? "sqlite");
  const secretBox = createSecretBox({ keys: [{ id: "test", key: randomBytes(32) }], activeKeyId: "test" });
  const dashboard = createDashboardApp({
    database: testDatabase.database,
    secretBox,
    settings: defaultDashboardSettings({ origins: [dashboardOrigin], publicUrl: dashboardOrigin, deliveryTimeoutMs: 1500, ...options.settings }),
    logger: createSilentLogger(),
    ...options.dependencies,
  });
  const server: Server = createDashboardServer(dashboard.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const prisma = testDatabase.database.prisma;
  let counter = 0;

  async function request(method: string, path: string, requestOptions: TestRequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...requestOptions.headers };
    if (requestOptions.cookie) headers.cookie = requestOptions.cookie;
    const unsafe = !["GET", "HEAD"].includes(method.toUpperCase());
    if (requestOptions.origin !== null && (requestOptions.origin !== undefined || unsafe)) headers.origin = requestOptions.origin ?? dashboardOrigin;
    if (requestOptions.body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${url}${path}`, {
      method: method.toUpperCase(),
      headers,
      body: requestOptions.body === undefined ? undefined : JSON.stringify(requestOptions.body),
      redirect: "manual",
    });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text === "" ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    return { status: response.status, headers: response.headers, body, text };
  }

  return {
    dashboard,
    database: testDatabase.database,
    databaseUrl: testDatabase.url,
    secretBox,
    url,
    request,
    async createOrganization(input = {}) {
      counter += 1;
      const suffix = `${counter}-${randomBytes(3).toString("hex")}`;
      return prisma.organization.create({
        data: { name: input.name ?? `Org ${suffix}`, slug: `org-${suffix}`, authenticationRequired: input.authenticationRequired ?? "password" },
      });
    },
    async createMember(input) {
      counter += 1;
      const email = input.email ?? `user${counter}-${randomBytes(3).toString("hex")}@example.com`;
      const password = input.password ?? `password-${counter}-long`;
      const emailNormalized = email.trim().toLowerCase();
      let user = await prisma.user.findUnique({ where: { emailNormalized } });
      user ??= await prisma.user.create({
        data: { email, emailNormalized, name: input.name ?? `User ${counter}`, passwordHash: await hashPassword(password, testHashParameters) },
      });
      await prisma.membership.create({ data: { organizationId: input.organizationId, userId: user.id, role: input.role } });
      return { userId: user.id, email, password };
    },
    async login(email, password, organizationId) {
      const response = await request("POST", "/v1/auth/login", { body: { email, password, ...(organizationId ? { organization_id: organizationId } : {}) }, origin: null });
      if (response.status !== 200) throw new Error(`login failed: ${response.status} ${response.text}`);
      const setCookie = response.headers.get("set-cookie") ?? "";
      return setCookie.split(";")[0]!;
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await testDatabase.dispose();
    },
  };
}
