import { defineConfig } from "vitest/config";

// Unit tests (src/**/*.test.ts) and the browser suite (test/**/*.test.ts: real servers driven
// through Debian's Chromium). One file at a time: each browser file starts its own servers and one browser.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
