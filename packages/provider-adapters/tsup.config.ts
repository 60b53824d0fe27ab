import { defineConfig } from "tsup";

export default defineConfig({
  // `count-tokens-worker` is the token-counting thread's module (`countTokensLocally`); `kinds`
  // is the registered provider kinds with zod alone (`@gateway/provider-adapters/kinds`).
  entry: { index: "src/index.ts", kinds: "src/providers/provider-kinds.ts", "count-tokens-worker": "src/token-counting/count-tokens-worker.ts" },
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
});
