# The API: compiled TypeScript on Node 20, production dependencies only.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY contracts/package.json contracts/
COPY state/package.json state/
COPY api/package.json api/
RUN npm ci --workspace api --include-workspace-root --ignore-scripts --no-audit --no-fund
COPY contracts contracts
COPY state state
COPY api api
RUN npx tsc -b contracts api

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY api/package.json api/
RUN npm ci --workspace api --omit=dev --ignore-scripts --no-audit --no-fund
COPY --from=build /app/contracts/dist contracts/dist
COPY --from=build /app/api/dist api/dist
USER node
EXPOSE 5000
CMD ["sh", "-c", "node api/dist/seed-cli.js && node --max-old-space-size=128 api/dist/server.js"]
