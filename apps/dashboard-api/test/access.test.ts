import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { permissionsByRole, roles, type Role } from "../src/auth/role-permissions.js";
import { databaseTargets } from "./support/test-database.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";
import { fillPath, seedResources, type ResourceIds } from "./support/seed-resources.js";

const missingIds = new Proxy({} as Record<string, string>, { get: () => "missing0000000000000000000" });

describe.each(databaseTargets)("access rules (%s)", (target) => {
  let harness: TestDashboard;
  let organizationA: string;
  let ownerA: string;
  let idsA: ResourceIds;
  let ownerB: string;
  const cookies = {} as Record<Role, string>;

  beforeAll(async () => {
    harness = await startTestDashboard({ target });
    organizationA = (await harness.createOrganization({ name: "A" })).id;
    for (const role of roles) {
      const member = await harness.createMember({ organizationId: organizationA, role });
      cookies[role] = await harness.login(member.email, member.password);
    }
    ownerA = cookies.owner;
    idsA = await seedResources(harness, { organizationId: organizationA, cookie: ownerA });
    const organizationB = (await harness.createOrganization({ name: "B" })).id;
    const owner = await harness.createMember({ organizationId: organizationB, role: "owner" });
    ownerB = await harness.login(owner.email, owner.password);
  }, 60_000);
  afterAll(async () => harness.close());

  const routes = () => harness.dashboard.routes;

  it("declares a permission (or public/session access) on every route, and every /api route needs a session", () => {
    for (const route of routes()) {
      expect(route.access, `${route.method} ${route.path}`).toBeDefined();
      if (route.path.startsWith("/api/") && route.path !== "/api/mcp/oauth/callback") expect(route.access).not.toBe("public");
    }
  });

  it("answers 401 without a session on every non-public route", async () => {
    for (const route of routes().filter((candidate) => candidate.access !== "public")) {
      const response = await harness.request(route.method, fillPath(route.path, missingIds), { body: route.exampleBody });
      expect(response.status, `${route.method} ${route.path}`).toBe(401);
      expect(response.body.error.code).toBe("unauthenticated");
    }
  });

  it("answers 403 exactly when the role lacks the route's permission", async () => {
    for (const route of routes().filter((candidate) => candidate.access !== "public" && candidate.access !== "session")) {
      for (const role of roles) {
        const response = await harness.request(route.method, fillPath(route.path, missingIds), { cookie: cookies[role], body: route.exampleBody });
        const allowed = (permissionsByRole[role] as readonly string[]).includes(route.access);
        if (allowed) expect([401, 403], `${role} ${route.method} ${route.path}: ${response.text}`).not.toContain(response.status);
        else {
          expect(response.status, `${role} ${route.method} ${route.path}`).toBe(403);
          expect(response.body.error).toMatchObject({ code: "permission_denied", details: { permission: route.access } });
        }
      }
    }
  }, 60_000);

  it("answers 404 for another organization's ids on every route that takes an id", async () => {
    const withIds = routes().filter((route) => route.params !== undefined && route.access !== "public");
    expect(withIds.length).toBeGreaterThan(40);
    for (const route of withIds) {
      const response = await harness.request(route.method, fillPath(route.path, idsA), { cookie: ownerB, body: route.exampleBody });
      expect(response.status, `${route.method} ${route.path}: ${response.text}`).toBe(404);
      expect(response.body.error.code).toBe("not_found");
    }
    // ...and the same ids work for their own organization.
    for (const route of withIds.filter((candidate) => candidate.method === "get")) {
      const response = await harness.request("GET", fillPath(route.path, idsA), { cookie: ownerA });
      expect(response.status, `${route.path}: ${response.text}`).toBe(200);
    }
  }, 60_000);

  it("lists nothing of another organization", async () => {
    for (const route of routes().filter((candidate) => candidate.method === "get" && candidate.params === undefined && candidate.access !== "public" && candidate.path.startsWith("/api/"))) {
      const response = await harness.request("GET", route.path, { cookie: ownerB });
      expect(response.status, route.path).toBe(200);
      const text = response.text;
      for (const id of Object.values(idsA)) expect(text, `${route.path} leaks ${id}`).not.toContain(id);
    }
  });

  it("refuses unsafe requests with a cookie unless they come from the dashboard origin", async () => {
    const unsafe = routes().filter((route) => route.method !== "get");
    for (const route of unsafe) {
      const path = fillPath(route.path, missingIds);
      for (const origin of [null, "https://evil.example", "null"]) {
        const response = await harness.request(route.method, path, { cookie: ownerA, body: route.exampleBody, origin });
        expect(response.status, `${route.method} ${route.path} origin=${origin}`).toBe(403);
        expect(response.body.error.code).toBe("origin_rejected");
      }
    }
    const sameOrigin = await harness.request("POST", "/api/projects", {
      cookie: ownerA,
      origin: null,
      headers: { "sec-fetch-site": "same-origin" },
      body: { name: "from a same-origin fetch" },
    });
    expect(sameOrigin.status).toBe(201);
    const crossSite = await harness.request("POST", "/api/projects", { cookie: ownerA, origin: null, headers: { "sec-fetch-site": "cross-site" }, body: { name: "x" } });
    expect(crossSite.status).toBe(403);
  });

  it("takes a role change or removal into account on the next request", async () => {
    const member = await harness.createMember({ organizationId: organizationA, role: "admin" });
    const cookie = await harness.login(member.email, member.password);
    expect((await harness.request("POST", "/api/teams", { cookie, body: { name: "admins' team" } })).status).toBe(201);
    const demoted = await harness.request("PATCH", `/api/members/${member.userId}`, { cookie: ownerA, body: { role: "viewer" } });
    expect(demoted.status).toBe(200);
    expect((await harness.request("POST", "/api/teams", { cookie, body: { name: "another" } })).status).toBe(403);
    expect((await harness.request("DELETE", `/api/members/${member.userId}`, { cookie: ownerA })).status).toBe(200);
    expect((await harness.request("GET", "/v1/auth/session", { cookie })).status).toBe(401);
  });

  it("records an audit event for changes", async () => {
    const response = await harness.request("GET", "/api/audit-events?action=project.created", { cookie: ownerA });
    expect(response.status).toBe(200);
    expect(response.body.data.length).toBeGreaterThan(0);
    expect(response.body.data[0]).toMatchObject({ action: "project.created", target_type: "project", object: "audit.event" });
  });
});
