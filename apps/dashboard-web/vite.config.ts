import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// `pnpm build` emits dist/ (served by @gateway/dashboard-api at /). `vite` (development) proxies the
// API to a dashboard on DASHBOARD_URL (default http://127.0.0.1:8081); that dashboard must list
// the dev server's origin in DASHBOARD_ORIGIN (e.g. http://localhost:5173).
const dashboardUrl = process.env.DASHBOARD_URL ?? "http://127.0.0.1:8081";

export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", sourcemap: true, chunkSizeWarningLimit: 1200 },
  server: { proxy: { "/api": dashboardUrl, "/v1": dashboardUrl, "/openapi.json": dashboardUrl } },
});
