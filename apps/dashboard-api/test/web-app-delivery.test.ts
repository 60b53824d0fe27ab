import { mkdirSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseContentEncoding } from "../src/http/choose-content-encoding.js";
import { createFakeWebBuild } from "./support/fake-web-build.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

/** One raw answer (fetch would decode the body itself). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

describe("chooseContentEncoding", () => {
  const both = ["br", "gzip"] as const;
  it("prefers brotli, falls back to gzip, honours q=0 and *", () => {
    expect(chooseContentEncoding({ acceptEncoding: "gzip, deflate, br, zstd", available: both })).toBe("br");
    expect(chooseContentEncoding({ acceptEncoding: "gzip, deflate", available: both })).toBe("gzip");
    expect(chooseContentEncoding({ acceptEncoding: "br;q=0, gzip", available: both })).toBe("gzip");
    expect(chooseContentEncoding({ acceptEncoding: "br;q=0.5, gzip;q=0.8", available: both })).toBe("gzip");
    expect(chooseContentEncoding({ acceptEncoding: "*", available: both })).toBe("br");
    expect(chooseContentEncoding({ acceptEncoding: "*;q=0, identity", available: both })).toBeNull();
    expect(chooseContentEncoding({ acceptEncoding: "identity", available: both })).toBeNull();
    expect(chooseContentEncoding({ acceptEncoding: undefined, available: both })).toBeNull();
    expect(chooseContentEncoding({ acceptEncoding: "br", available: ["gzip"] })).toBeNull();
  });
});

describe("how the web app and the API are delivered", () => {
  let build: ReturnType<typeof createFakeWebBuild>;
  let harness: TestDashboard;
  const script = `export const greeting = ${JSON.stringify("hello from the dashboard ".repeat(200))};\n`;
  const scriptPath = "/assets/app-Zz99Yy88.js";

  beforeAll(async () => {
    build = createFakeWebBuild();
    // As the build writes them: the file, its gzip and brotli twins, and a source map beside it.
    const file = path.join(build.root, scriptPath);
    writeFileSync(file, script);
    writeFileSync(`${file}.gz`, gzipSync(script));
    writeFileSync(`${file}.br`, brotliCompressSync(script));
    writeFileSync(`${file}.map`, JSON.stringify({ version: 3, sources: ["src/secret-plans.ts"], mappings: "" }));
    mkdirSync(path.join(build.root, "nested"), { recursive: true });
    writeFileSync(path.join(build.root, "nested", "plain.txt"), "no twins here");
    harness = await startTestDashboard({ settings: { webRoot: build.root } });
  });
  afterAll(async () => {
    await harness?.close();
    build?.remove();
  });

  it("sends the brotli or gzip twin of an asset by Accept-Encoding, decodable to the very file", async () => {
    const brotli = await rawGet(`${harness.url}${scriptPath}`, { "accept-encoding": "gzip, deflate, br" });
    expect(brotli.status).toBe(200);
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(brotli.headers["content-length"])).toBe(brotli.body.length);
    expect(brotli.body.length).toBeLessThan(Buffer.byteLength(script));
    expect(brotliDecompressSync(brotli.body).toString("utf8")).toBe(script);

    const gzipped = await rawGet(`${harness.url}${scriptPath}`, { "accept-encoding": "gzip" });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gzipped.body).toString("utf8")).toBe(script);

    const refused = await rawGet(`${harness.url}${scriptPath}`, { "accept-encoding": "br;q=0, gzip;q=0" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(refused.headers.vary).toMatch(/accept-encoding/i);
    expect(refused.body.toString("utf8")).toBe(script);

    const plain = await rawGet(`${harness.url}${scriptPath}`, {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString("utf8")).toBe(script);
    // A file without twins is sent as it is.
    const text = await rawGet(`${harness.url}/nested/plain.txt`, { "accept-encoding": "br, gzip" });
    expect(text.headers["content-encoding"]).toBeUndefined();
    expect(text.body.toString("utf8")).toBe("no twins here");
  });

  it("never serves source maps, and a path outside the build is no file of it", async () => {
    const map = await harness.request("GET", `${scriptPath}.map`);
    expect(map.status).toBe(404);
    expect(map.body.error.code).toBe("not_found");
    const climbing = await rawGet(`${harness.url}/assets/..%2f..%2fpackage.json`, { "accept-encoding": "br" });
    expect(climbing.status).toBe(404);
  });

  it("adds Permissions-Policy and Cross-Origin-Opener-Policy to the HTML", async () => {
    for (const page of ["/", "/api-keys"]) {
      const response = await harness.request("GET", page, { headers: { accept: "text/html" } });
      expect(response.status).toBe(200);
      expect(response.headers.get("cross-origin-opener-policy")).toBe("same-origin");
      const policy = response.headers.get("permissions-policy") ?? "";
      for (const feature of ["camera=()", "microphone=()", "geolocation=()", "payment=()"]) expect(policy, page).toContain(feature);
      expect(response.headers.get("cache-control")).toBe("no-cache");
    }
  });

  it("marks API answers and error bodies Cache-Control: no-store", async () => {
    const organizationId = (await harness.createOrganization()).id;
    const member = await harness.createMember({ organizationId, role: "owner" });
    const cookie = await harness.login(member.email, member.password);
    const answers = [
      await harness.request("GET", "/api/projects", { cookie }),
      await harness.request("GET", "/v1/auth/session", { cookie }),
      await harness.request("GET", "/api/projects"),
      await harness.request("POST", "/api/projects", { cookie, body: { name: "" } }),
      await harness.request("GET", "/api/no-such-thing", { cookie }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 401, 400, 404]);
    for (const answer of answers) {
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
      expect(answer.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("tells the web app where the gateway is, in the session", async () => {
    const organizationId = (await harness.createOrganization()).id;
    const member = await harness.createMember({ organizationId, role: "viewer" });
    const cookie = await harness.login(member.email, member.password);
    const session = await harness.request("GET", "/v1/auth/session", { cookie });
    expect(session.body.gateway_url).toBe("http://127.0.0.1:8080");
  });
});
