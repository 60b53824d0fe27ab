import type { SnapshotMcpServer } from "@gateway/contracts";

/** Separator between a server's prefix and the name its server gives a tool or prompt: `tickets__create_issue`. */
export const mcpNameSeparator = "__";

/** Scheme of the resource URIs the gateway serves: `mcp-gateway://<prefix>/<the server's URI, percent-encoded>`. */
export const mcpResourceScheme = "mcp-gateway";

const longestPrefix = 32;

/** One organization's MCP servers, each with the prefix of the names the gateway serves for it. */
export interface McpServerDirectory {
  /** Every server of the organization, by name. */
  readonly servers: readonly SnapshotMcpServer[];
  readonly byPrefix: ReadonlyMap<string, SnapshotMcpServer>;
  /** Server id -> prefix. */
  readonly prefixOf: ReadonlyMap<string, string>;
}

/**
 * The prefixes of an organization's servers: the server's name, with every character other than
 * a letter, a digit or `-` replaced by `-` (runs collapsed, at most 32 characters; the dashboard
 * accepts only such names for new servers, so the prefix is the name). Names that still collide
 * get `-2`, `-3`, ... in name order, so no two servers share one and a prefix never contains the
 * `__` separator: every served name maps back to exactly one server.
 */
export function compileMcpServerDirectory(servers: readonly SnapshotMcpServer[]): McpServerDirectory {
  const sorted = [...servers].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : left.id < right.id ? -1 : 1));
  const byPrefix = new Map<string, SnapshotMcpServer>();
  const prefixOf = new Map<string, string>();
  for (const server of sorted) {
    const base = sanitizePrefix(server.name);
    let prefix = base;
    for (let suffix = 2; byPrefix.has(prefix); suffix += 1) prefix = `${base.slice(0, longestPrefix - String(suffix).length - 1)}-${suffix}`;
    byPrefix.set(prefix, server);
    prefixOf.set(server.id, prefix);
  }
  return { servers: sorted, byPrefix, prefixOf };
}

function sanitizePrefix(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, longestPrefix)
    .replace(/-+$/, "");
  return cleaned === "" ? "server" : cleaned;
}

/** The name the gateway serves for a server's tool or prompt: `<prefix>__<name>`. */
export function servedMcpName(prefix: string, name: string): string {
  return `${prefix}${mcpNameSeparator}${name}`;
}

/** The URI the gateway serves for a server's resource (or the template of a resource template). */
export function servedMcpResourceUri(prefix: string, uri: string): string {
  return `${mcpResourceScheme}://${prefix}/${encodeURIComponent(uri)}`;
}

/**
 * The URI template the gateway serves for a server's resource template: its literal parts
 * percent-encoded, its `{expressions}` kept, so that a client's expansion decodes back to the
 * server's own URI.
 */
export function servedMcpResourceTemplate(prefix: string, uriTemplate: string): string {
  const encoded = uriTemplate.replace(/(\{[^}]*\})|([^{]+)/g, (_match, expression: string | undefined, literal: string | undefined) =>
    expression ?? encodeURIComponent(literal ?? ""),
  );
  return `${mcpResourceScheme}://${prefix}/${encoded}`;
}

/** Splits a served tool or prompt name into the prefix and the server's own name; null when it is not one. */
export function parseServedMcpName(served: string): { prefix: string; name: string } | null {
  const at = served.indexOf(mcpNameSeparator);
  if (at <= 0 || at + mcpNameSeparator.length >= served.length) return null;
  return { prefix: served.slice(0, at), name: served.slice(at + mcpNameSeparator.length) };
}

/** Splits a served resource URI into the prefix and the server's own URI; null when it is not one. */
export function parseServedMcpResourceUri(served: string): { prefix: string; uri: string } | null {
  const scheme = `${mcpResourceScheme}://`;
  if (!served.startsWith(scheme)) return null;
  const rest = served.slice(scheme.length);
  const slash = rest.indexOf("/");
  if (slash <= 0) return null;
  try {
    const uri = decodeURIComponent(rest.slice(slash + 1));
    return uri === "" ? null : { prefix: rest.slice(0, slash), uri };
  } catch {
    return null;
  }
}
