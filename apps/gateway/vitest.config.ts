import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Many suites start whole gateways (migrations, config files, child processes): on a shared
    // 2-core machine one such start can take seconds. A hang still fails, just later.
    testTimeout: 20_000,
  },
});
