import { defineConfig } from "tsup";

export default defineConfig({
  // Two entries: `data-plane` must not reach the generated Prisma clients (shared code goes to chunks).
  entry: ["src/index.ts", "src/data-plane.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
});
