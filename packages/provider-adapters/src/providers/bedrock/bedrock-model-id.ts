/**
 * The Bedrock model id of an upstream model name: an ARN (inference profile, provisioned
 * throughput) or a bare id (`anthropic.claude-sonnet-4-20250514-v1:0`,
 * `us.anthropic.claude-...`) as it is; the gateway's `<vendor>/<model>` form with the vendor as
 * Bedrock's provider prefix (`anthropic/claude-sonnet-4-20250514-v1:0`) as `<vendor>.<model>`.
 */
export function bedrockModelId(upstreamModel: string): string {
  if (upstreamModel.startsWith("arn:")) return upstreamModel;
  const slash = upstreamModel.indexOf("/");
  if (slash <= 0) return upstreamModel;
  return `${upstreamModel.slice(0, slash)}.${upstreamModel.slice(slash + 1)}`;
}
