import type { ProviderTarget } from "../../provider-adapter.js";
import { servedModelOf } from "../../upstream-call.js";

/**
 * The Bedrock model id of a name: an ARN (inference profile, provisioned throughput) or a bare
 * id (`anthropic.claude-sonnet-4-20250514-v1:0`, `us.anthropic.claude-...`) as it is; the
 * gateway's `<vendor>/<model>` form, the vendor being Bedrock's provider prefix
 * (`anthropic/claude-sonnet-4-20250514-v1:0`), as `<vendor>.<model>`.
 */
export function bedrockModelId(name: string): string {
  if (name.startsWith("arn:")) return name;
  const slash = name.indexOf("/");
  if (slash <= 0) return name;
  return `${name.slice(0, slash)}.${name.slice(slash + 1)}`;
}

/**
 * The Bedrock model id a target calls: the connection's `upstreamModelNames` entry when it has
 * one (an id, an inference profile or an ARN), else the served `<vendor>/<model>` as
 * `<vendor>.<model>` (the gateway sends other providers only `<model>`; Bedrock's ids need the
 * vendor prefix).
 */
export function bedrockModelIdOf(target: ProviderTarget): string {
  const served = servedModelOf(target);
  const names = target.connection.upstreamModelNames;
  if (names !== undefined && Object.hasOwn(names, served)) return bedrockModelId(target.upstreamModel);
  return bedrockModelId(served);
}
