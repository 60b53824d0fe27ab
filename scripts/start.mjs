// Starts the gateway (and the dashboard API once it exists) on the embedded default:
// SQLite under ./data, in-memory counters, a built-in demo provider.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const gatewayEntry = fileURLToPath(new URL("../apps/gateway/dist/index.js", import.meta.url));
if (!existsSync(gatewayEntry)) {
  console.log("The gateway is not built yet: run `pnpm build` first.");
  process.exit(0);
}
const gateway = await import(pathToFileURL(gatewayEntry).href);
if (typeof gateway.startGateway !== "function") {
  console.log("The gateway app does not export startGateway yet; nothing to start.");
  process.exit(0);
}
await gateway.startGateway({});
