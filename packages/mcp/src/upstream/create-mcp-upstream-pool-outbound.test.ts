import { createServer } from "node:net";
import type { AddressInfo, LookupFunction } from "node:net";
import type { SnapshotMcpServer } from "@gateway/contracts";
import { createOutboundFetch } from "@gateway/provider-adapters";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpUpstreamPool } from "./create-mcp-upstream-pool.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Resolves `mcp.test` to 127.0.0.1 (no DNS). */
const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
  if (hostname !== "mcp.test") callback(Object.assign(new Error("not found"), { code: "ENOTFOUND" }));
  else if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
  else callback(null, "127.0.0.1", 4);
}) as unknown as LookupFunction;

describe("createMcpUpstreamPool outbound address policy", () => {
  it("refuses an MCP server whose host resolves to a refused address before connecting, naming the rule", async () => {
    let connections = 0;
    const listener = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => listener.close(() => resolve())));
    const pool = createMcpUpstreamPool({
      grants: { accessTokenFor: async () => "upstream-token-secret", renewAfterRejection: async () => "upstream-token-secret" },
      callTimeoutMs: 5000,
      listTimeoutMs: 5000,
      catalogTtlMs: 0,
      fetch: createOutboundFetch({ policy: { privateAddresses: "deny" }, lookup }),
    });
    closers.push(() => pool.close());
    const server: SnapshotMcpServer = {
      id: "mcp_1",
      organizationId: "org_1",
      name: "tickets",
      url: `http://mcp.test:${(listener.address() as AddressInfo).port}/mcp`,
      transport: "streamable_http",
      authKind: "bearer",
      status: "connected",
      accessToken: "upstream-token-secret",
      accessTokenExpiresAt: null,
    };
    const error = await pool.catalog(server).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "upstream_error", status: 502 });
    expect((error as Error).message).toContain(
      "Outbound address refused: mcp.test resolves to 127.0.0.1 is a loopback address; loopback and private addresses are refused (GATEWAY_OUTBOUND_PRIVATE_ADDRESSES=deny).",
    );
    expect((error as Error).message).not.toContain("upstream-token-secret");
    expect(connections).toBe(0);
  });
});
