import { defineConfig } from "tsup";

export default defineConfig({
  // `count-tokens-worker` is the token-counting thread's module (`countTokensLocally`).
  entry: { index: "src/index.ts", "count-tokens-worker": "src/token-counting/count-tokens-worker.ts" },
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
});
