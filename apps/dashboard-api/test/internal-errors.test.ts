import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createSecretBox } from "@gateway/db";
import { describe, expect, it } from "vitest";
import { createDashboardApp } from "../src/create-dashboard-app.js";
import { defaultDashboardSettings } from "../src/dashboard-settings.js";

describe("internal failures", () => {
  it("answer a generic 500 in the dashboard body with x-request-id, never the cause, and log the cause", async () => {
    const failing = new Proxy({}, { get: () => new Proxy({}, { get: () => async () => { throw new Error("connect ECONNREFUSED db-secret-host:5432 password=hunter2"); } }) });
    const logged: Record<string, unknown>[] = [];
    const { app } = createDashboardApp({
      database: { prisma: failing, provider: "sqlite" } as never,
      secretBox: createSecretBox({ keys: [{ id: "k", key: randomBytes(32) }], activeKeyId: "k" }),
      settings: defaultDashboardSettings(),
      logger: { info: () => undefined, warn: () => undefined, error: (_message, fields) => logged.push(fields ?? {}) },
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "a@example.com", password: "x" }),
      });
      expect(response.status).toBe(500);
      expect(response.headers.get("x-request-id")).toMatch(/^req_/);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ error: { code: "internal_error", message: "Internal error.", details: {} } });
      expect(text).not.toContain("hunter2");
      expect(logged).toEqual([expect.objectContaining({ code: "internal_error", cause: "Error", request_id: response.headers.get("x-request-id") })]);
      expect(JSON.stringify(logged)).not.toContain("hunter2");
    } finally {
      server.close();
    }
  });
});
