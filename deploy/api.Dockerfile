# The API: compiled TypeScript on Node 24 LTS, production dependencies only, as the image's
# unprivileged `node` user. It never seeds: the demo seed is a separate one-off job in development.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY contracts/package.json contracts/
COPY state/package.json state/
COPY api/package.json api/
RUN npm ci --workspace api --include-workspace-root --ignore-scripts --no-audit --no-fund
COPY contracts contracts
COPY api api
RUN npx tsc -b contracts api

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY api/package.json api/
RUN npm ci --workspace api --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/contracts/dist contracts/dist
COPY --from=build /app/api/dist api/dist
USER node
EXPOSE 5000
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 5000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1's only child under `init: true` (or tini in Kubernetes' pause-less
# pods it is PID 1 itself) and receives SIGTERM directly.
# The node flags are API_NODE_ARGS (scripts/services.mjs says why; a deploy test keeps them equal):
# heap limits that hold peak RSS under 200 MB at scale, and no allocation-site pretenuring.
CMD ["node", "--max-old-space-size=128", "--max-semi-space-size=8", "--no-allocation-site-pretenuring", "api/dist/server.js"]
