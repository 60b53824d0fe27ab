/** What an MCP server offers: tools, prompts, resources (resource templates count as resources). */
export type McpCapabilityKind = "tool" | "prompt" | "resource";

/**
 * The id the allow/deny lists of model policies match for something an MCP server offers:
 *
 * - a tool: `mcp:<server>/<tool>`;
 * - a prompt: `mcp:<server>/prompts/<prompt>`;
 * - a resource: `mcp:<server>/resources/<uri>` (the server's own URI).
 *
 * `<server>` is the server's name in the organization. The `mcp:` prefix keeps these ids apart
 * from models: a connection name never contains `:` and an alias never contains `/`. Globs work
 * as for models: `mcp:tickets/*` is every tool of `tickets`, `mcp:tickets/**` everything it
 * offers, `mcp:**` everything on every MCP server, `mcp:tickets/delete_*` its delete tools. A
 * policy with an allow list therefore also decides MCP access: subjects it does not allow are
 * denied (`not_in_allow_list`), as for models.
 */
export function mcpPolicySubject(input: { server: string; kind: McpCapabilityKind; name: string }): string {
  if (input.kind === "tool") return `mcp:${input.server}/${input.name}`;
  return `mcp:${input.server}/${input.kind === "prompt" ? "prompts" : "resources"}/${input.name}`;
}
