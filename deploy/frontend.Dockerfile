# One front end (shell or a remote) built once and served as static files; /config.json is
# mounted per environment, so the same image runs everywhere.
FROM node:20-bookworm-slim AS build
ARG WORKSPACE
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json ./
COPY contracts/package.json contracts/
COPY state/package.json state/
COPY ${WORKSPACE}/package.json ${WORKSPACE}/
RUN npm ci --workspace ${WORKSPACE} --ignore-scripts --no-audit --no-fund
COPY scripts/webpack-config.cjs scripts/index.html scripts/
COPY contracts contracts
COPY state state
COPY ${WORKSPACE} ${WORKSPACE}
RUN npm run build -w ${WORKSPACE}

FROM nginx:1.27-alpine
ARG WORKSPACE
COPY deploy/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /app/${WORKSPACE}/dist /usr/share/nginx/html
