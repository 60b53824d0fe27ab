import { defineConfig } from "tsup";

export default defineConfig({
  // `data-plane` must not reach the generated Prisma clients (shared code goes to chunks);
  // `usage-writer-worker` is the usage writer thread's module (`openUsageWriterThread`).
  entry: ["src/index.ts", "src/data-plane.ts", "src/usage-writer-worker.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
});
