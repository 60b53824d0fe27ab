import { GatewayError } from "@gateway/errors";
import { ProtocolError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { mapUpstreamError } from "./map-upstream-error.js";

describe("mapUpstreamError (MCP)", () => {
  it("relays the server's JSON-RPC error without its token, echoes of it or key shapes", () => {
    const token = "mcp-access-7Hq2Lw9Xe4Rt1Yu6Io3Pa8Sd";
    const thrown = new ProtocolError(-32000, `token ${token.slice(11)} expired; also saw sk-proj-AbCdEfGhIjKlMn`, { seen: [token] });
    const mapped = mapUpstreamError(thrown, { name: "files", id: "mcp_1" }, [token]);
    expect(GatewayError.isInstance(mapped)).toBe(true);
    const text = JSON.stringify({ message: (mapped as GatewayError).message, details: (mapped as GatewayError).details });
    expect(text).not.toContain(token.slice(11, 21));
    expect(text).not.toContain("AbCdEfGh");
    expect((mapped as GatewayError).details).toMatchObject({ jsonrpc_error: { code: -32000, data: { seen: ["[redacted]"] } } });
  });
});
