# syntax=docker/dockerfile:1
# The gateway and the dashboard API in one image (run one per container; see compose.yaml).
# Build: docker build -t ai-gateway .
# Gateway:   docker run -p 8080:8080 -p 9464:9464 -e DATABASE_URL=... -e GATEWAY_SECRET_KEY=... ai-gateway
# Dashboard: docker run -p 8081:8081 -e DATABASE_URL=... -e GATEWAY_SECRET_KEY=... ai-gateway node dashboard-api/dist/main.js
ARG NODE_IMAGE=node:20.20-bookworm-slim

# ---- build: install everything, build every package and app, then cut production-only copies
FROM ${NODE_IMAGE} AS build
ENV PNPM_HOME=/pnpm PATH=/pnpm:$PATH CI=true TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
RUN npm install -g pnpm@10.34.8
WORKDIR /repo
# Manifests first, so that the dependency layer is reused while only sources change.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
COPY packages/budget/package.json packages/budget/
COPY packages/contracts/package.json packages/contracts/
COPY packages/db/package.json packages/db/
COPY packages/decision-schema/package.json packages/decision-schema/
COPY packages/errors/package.json packages/errors/
COPY packages/pipeline/package.json packages/pipeline/
COPY packages/policy-engine/package.json packages/policy-engine/
COPY packages/provider-adapters/package.json packages/provider-adapters/
COPY apps/gateway/package.json apps/gateway/
COPY apps/dashboard-api/package.json apps/dashboard-api/
COPY apps/dashboard-web/package.json apps/dashboard-web/
# Installs the platform's prebuilt libSQL binary (@libsql/linux-x64-gnu on linux-x64 glibc) with the rest; no install scripts run.
RUN pnpm install --frozen-lockfile
COPY . .
RUN pnpm build
# Self-contained production copies: each app with its workspace packages' built files and only
# production dependencies (no dev tools, no sources).
RUN pnpm --filter @gateway/gateway deploy --prod --legacy /out/gateway \
 && pnpm --filter @gateway/dashboard-api deploy --prod --legacy /out/dashboard-api \
 && mkdir -p /out/dashboard-web && cp -r apps/dashboard-web/dist /out/dashboard-web/dist

# ---- runtime: production dependencies only, non-root
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    GATEWAY_HOST=0.0.0.0 \
    GATEWAY_METRICS_HOST=0.0.0.0 \
    GATEWAY_DATA_DIR=/data \
    GATEWAY_LOG_FORMAT=json \
    DASHBOARD_HOST=0.0.0.0 \
    DASHBOARD_LOG_FORMAT=json \
    DASHBOARD_WEB_ROOT=/app/dashboard-web/dist
WORKDIR /app
COPY --from=build --chown=root:root /out/gateway ./gateway
COPY --from=build --chown=root:root /out/dashboard-api ./dashboard-api
COPY --from=build --chown=root:root /out/dashboard-web ./dashboard-web
# The embedded SQLite default and a generated secret key live in /data (mount a volume); the code stays read-only.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080 8081 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.GATEWAY_PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# --no-memory-reducer and --v8-pool-size=1: see "Running it" in apps/gateway/README.md (V8's
# idle-time heap shrinking costs the next burst about half again the CPU per request; four GC
# helper threads on a 1-2 core container stall the event loop's thread during major collections).
CMD ["node", "--no-memory-reducer", "--v8-pool-size=1", "--max-semi-space-size=4", "gateway/dist/main.js"]
