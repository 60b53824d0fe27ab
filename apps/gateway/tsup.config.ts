import { defineConfig } from "tsup";

export default defineConfig({
  // `main` and `startup-worker` are separate entries: the serving thread never imports Prisma; the worker does.
  entry: ["src/index.ts", "src/main.ts", "src/startup-worker.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
});
