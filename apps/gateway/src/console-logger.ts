import type { GatewayLogger } from "./create-gateway-runtime.js";

/** Notices to stdout, errors to stderr (messages only: never a stack that could carry a secret). */
export const consoleLogger: GatewayLogger = {
  info: (message) => console.log(message),
  error: (message, error) => console.error(message, error instanceof Error ? error.message : (error ?? "")),
};
