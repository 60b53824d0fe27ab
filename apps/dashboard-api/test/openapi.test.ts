import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

const methods = ["get", "post", "put", "patch", "delete"] as const;

/** Every (method, path) Express really routes, read from the app's router stack. */
function expressRoutes(harness: TestDashboard): Set<string> {
  const found = new Set<string>();
  const visit = (stack: any[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) found.add(`${method} ${String(layer.route.path).replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`);
      } else if (layer.handle?.stack) visit(layer.handle.stack);
    }
  };
  visit((harness.dashboard.app as any).router.stack);
  return found;
}

describe("OpenAPI document", () => {
  let harness: TestDashboard;
  let document: any;

  beforeAll(async () => {
    harness = await startTestDashboard();
    const response = await harness.request("GET", "/openapi.json");
    expect(response.status).toBe(200);
    document = response.body;
  });
  afterAll(async () => harness.close());

  it("is OpenAPI 3.1 with a cookie security scheme", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.components.securitySchemes.sessionCookie).toEqual({ type: "apiKey", in: "cookie", name: "gateway_session" });
  });

  it("documents every route that exists, and every documented path is routed", async () => {
    const documented = new Set<string>();
    for (const [path, item] of Object.entries<Record<string, unknown>>(document.paths)) {
      for (const method of methods) if (item[method]) documented.add(`${method} ${path}`);
    }
    const routed = expressRoutes(harness);
    routed.delete("get /openapi.json");
    routed.delete("get /healthz");
    routed.delete("get /readyz");
    expect([...routed].filter((entry) => !documented.has(entry))).toEqual([]);
    expect([...documented].filter((entry) => !routed.has(entry))).toEqual([]);
    // ...and each documented operation really answers (not the catch-all 404 "No such endpoint").
    for (const entry of documented) {
      const [method, path] = entry.split(" ") as [string, string];
      const response = await harness.request(method, path.replace(/\{[a-z_]+\}/g, "x"));
      expect(response.body?.error?.message, entry).not.toBe("No such endpoint.");
    }
  });

  it("describes parameters, bodies, responses and permissions from the zod schemas", () => {
    const login = document.paths["/v1/auth/login"].post;
    expect(login.requestBody.content["application/json"].schema.required).toEqual(expect.arrayContaining(["email", "password"]));
    expect(login.responses["200"].content["application/json"].schema.properties.object).toMatchObject({ const: "auth.session" });
    const revoke = document.paths["/api/api-keys/{api_key_id}"].delete;
    expect(revoke["x-permission"]).toBe("api_keys:write");
    expect(revoke.parameters).toEqual([expect.objectContaining({ name: "api_key_id", in: "path", required: true })]);
    expect(revoke.responses["404"]).toEqual({ $ref: "#/components/responses/DashboardError" });
    const invitations = document.paths["/api/invitations"].get;
    expect(invitations.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(expect.arrayContaining(["limit", "cursor", "status", "delivery_status", "email"]));
    expect(invitations.responses["200"].content["application/json"].schema.properties.object).toMatchObject({ const: "list" });
    const playground = document.paths["/api/playground/chat"].post;
    expect(Object.keys(playground.responses["200"].content)).toEqual(["application/json", "text/event-stream"]);
    for (const item of Object.values<Record<string, any>>(document.paths)) {
      for (const method of methods) {
        const operation = item[method];
        if (!operation) continue;
        expect(operation.operationId).toMatch(/^[a-z_]+$/);
        if (operation.security.length > 0 && operation.operationId !== "get_session") expect(operation["x-permission"]).toEqual(expect.stringMatching(/^[a-z_]+:[a-z]+$/));
      }
    }
  });
});
