import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeWebBuild } from "./support/fake-web-build.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

describe("the web app at / beside the API", () => {
  let build: ReturnType<typeof createFakeWebBuild>;
  let harness: TestDashboard;

  beforeAll(async () => {
    build = createFakeWebBuild();
    harness = await startTestDashboard({ settings: { webRoot: build.root } });
  });
  afterAll(async () => {
    await harness.close();
    build.remove();
  });

  it("serves index.html at / and for client-side routes, never cached, with a strict content security policy", async () => {
    for (const page of ["/", "/api-keys", "/invitations/accept?token=inv_abc", "/usage/models", "/apiary", "/v1beta"]) {
      const response = await harness.request("GET", page, { headers: { accept: "text/html" } });
      expect(response.status, page).toBe(200);
      expect(response.text, page).toBe(build.indexHtml);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(response.headers.get("content-security-policy")).toContain("script-src 'self';");
      expect(response.headers.get("content-security-policy")).toContain("style-src 'self';");
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    }
    const head = await harness.request("HEAD", "/projects");
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  it("serves a rebuilt index.html without a restart", async () => {
    const rebuilt = build.indexHtml.replace("index-Ab12Cd34.js", "index-Ef56Gh78.js");
    writeFileSync(path.join(build.root, "index.html"), rebuilt);
    try {
      expect((await harness.request("GET", "/members")).text).toBe(rebuilt);
    } finally {
      writeFileSync(path.join(build.root, "index.html"), build.indexHtml);
    }
  });

  it("serves hashed assets with a long immutable cache, and 404s a missing file", async () => {
    const asset = await harness.request("GET", build.assetPath);
    expect(asset.status).toBe(200);
    expect(asset.text).toBe(build.assetBody);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
    const icon = await harness.request("GET", "/favicon.svg");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("cache-control")).toBe("no-cache");
    const missing = await harness.request("GET", "/assets/index-missing.js");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
  });

  it("leaves the API, the OpenAPI document and the health check as they were", async () => {
    for (const page of ["/api", "/api/", "/api/unknown", "/api/api-keys/x/unknown", "/v1", "/v1/unknown"]) {
      const response = await harness.request("GET", page, { headers: { accept: "text/html" } });
      expect(response.status, page).toBe(404);
      expect(response.body, page).toEqual({ error: { code: "not_found", message: "No such endpoint.", details: {} } });
    }
    expect((await harness.request("GET", "/api/projects")).body.error.code).toBe("unauthenticated");
    expect((await harness.request("GET", "/openapi.json")).body.openapi).toBe("3.1.0");
    expect((await harness.request("GET", "/healthz")).body).toEqual({ status: "ok" });
    // Unsafe methods on pages are not the web app's either.
    const post = await harness.request("POST", "/api-keys", { body: {} });
    expect(post.status).toBe(404);
    expect(post.body.error.message).toBe("No such endpoint.");
  });

  it("sends a browser that returns from an OAuth authorization back to the web app with the outcome", async () => {
    const browser = await harness.request("GET", "/api/mcp/oauth/callback?state=st_unknown&code=abc", { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect(browser.status).toBe(303);
    const location = new URL(browser.headers.get("location")!, harness.url);
    expect(location.pathname).toBe("/mcp");
    expect(Object.fromEntries(location.searchParams)).toEqual({
      outcome: "failed",
      code: "not_found",
      message: "Unknown or expired OAuth state; start the authorization again.",
      request_id: browser.headers.get("x-request-id"),
    });
    // Programs keep the JSON answer.
    const program = await harness.request("GET", "/api/mcp/oauth/callback?state=st_unknown&code=abc");
    expect(program.status).toBe(404);
    expect(program.body.error.code).toBe("not_found");
  });
});

describe("without a built web app", () => {
  it("serves the API only: / is the JSON 404, and OAuth callbacks answer JSON to browsers too", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "dashboard-web-empty-"));
    for (const webRoot of [null, empty]) {
      const harness = await startTestDashboard({ settings: { webRoot } });
      try {
        const root = await harness.request("GET", "/", { headers: { accept: "text/html" } });
        expect(root.status).toBe(404);
        expect(root.body.error.message).toBe("No such endpoint.");
        const callback = await harness.request("GET", "/api/mcp/oauth/callback?state=st_unknown&code=abc", { headers: { accept: "text/html" } });
        expect(callback.status).toBe(404);
      } finally {
        await harness.close();
      }
    }
    rmSync(empty, { recursive: true, force: true });
  });
});
