import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompressAssets } from "./scripts/precompress-assets.js";

// `pnpm build` emits dist/ (served by @gateway/dashboard-api at /). `vite` (development) proxies the
// API to a dashboard on DASHBOARD_URL (default http://127.0.0.1:8081); that dashboard must list
// the dev server's origin in DASHBOARD_ORIGIN (e.g. http://localhost:5173).
const dashboardUrl = process.env.DASHBOARD_URL ?? "http://127.0.0.1:8081";

export default defineConfig({
  // Text files get .gz and .br twins at build time; the dashboard API picks one by Accept-Encoding.
  plugins: [react(), precompressAssets()],
  // Source maps stay in dist/ for reading a reported stack trace, but the bundles do not point to
  // them and the dashboard API does not serve them.
  build: { outDir: "dist", sourcemap: "hidden", chunkSizeWarningLimit: 1200 },
  server: { proxy: { "/api": dashboardUrl, "/v1": dashboardUrl, "/openapi.json": dashboardUrl } },
});
