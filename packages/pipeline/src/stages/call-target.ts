/**
 * What the call skeleton reads of a call's target: what the call goes to (a provider connection,
 * an MCP server) and the model (a tool) it asks it for. A `ProviderTarget` of the adapters is one;
 * an endpoint that routes itself (`InferenceEndpoint.route`) brings its own.
 */
export interface CallTarget {
  /** The connection (or MCP server): its name is the usage event's `provider`. */
  connection: { id: string; name: string };
  /** `<connection>/<model>` as the gateway knows it (an MCP tool: `<server>/<tool>`). */
  qualifiedModel: string;
  /** What is asked for upstream (a model name, an MCP tool's name). */
  upstreamModel: string;
}
