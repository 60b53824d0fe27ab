// Runs the benchmark mock provider as its own process (so its CPU is not the gateway's).
// Prints `{"url": ...}` on one line once listening.
import { startMockProvider } from "./mock-provider.mjs";

const latencyMs = Number(process.env.MOCK_LATENCY_MS ?? "0");
const provider = await startMockProvider({ latencyMs });
process.stdout.write(`${JSON.stringify({ url: provider.url })}\n`);
process.on("SIGTERM", async () => {
  await provider.close();
  process.exit(0);
});
