// An MCP server in its own process, for the gateway's crash test: `crash` ends the process in
// the middle of the call (no answer is ever sent). Prints its URL as one JSON line.
import { startLocalMcpServer } from "@gateway/mcp/testing";

const server = await startLocalMcpServer({
  name: "crashy",
  tools: [
    { name: "ping", handler: () => ({ content: [{ type: "text", text: "pong" }] }) },
    {
      name: "crash",
      handler: () => {
        setTimeout(() => process.exit(1), 20);
        return new Promise(() => undefined);
      },
    },
  ],
});
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
