# One front end (shell or a remote): a production webpack build served by unprivileged nginx on
# port 8080. /config.json is mounted per environment, so the same image runs everywhere; the
# image's tag is the release version of that one front end (never rebuilt under the same tag).
FROM node:24-bookworm-slim AS build
ARG WORKSPACE
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json ./
COPY contracts/package.json contracts/
COPY state/package.json state/
COPY ${WORKSPACE}/package.json ${WORKSPACE}/
# The shell builds its router from each remote's route table (`@motoparts/<remote>/routes`, a
# data file): the build stage gets the three tables and their package.json, never a remote's
# other sources (for the shell, npm ci then also installs the remotes' packages in this stage;
# only dist/ reaches the image).
COPY storefront-mfe/package.json storefront-mfe/
COPY auth-mfe/package.json auth-mfe/
COPY dashboard-mfe/package.json dashboard-mfe/
RUN npm ci --workspace ${WORKSPACE} --ignore-scripts --no-audit --no-fund
COPY scripts/webpack scripts/webpack
COPY storefront-mfe/src/app/routes.ts storefront-mfe/src/app/
COPY auth-mfe/src/app/routes.ts auth-mfe/src/app/
COPY dashboard-mfe/src/app/routes.ts dashboard-mfe/src/app/
COPY contracts contracts
COPY state state
COPY ${WORKSPACE} ${WORKSPACE}
# `build` is webpack --mode production. Source maps stay with the build artefacts for error
# tracking and are not put into the served folder.
RUN npm run build -w ${WORKSPACE} && find ${WORKSPACE}/dist -name '*.map' -delete

FROM nginxinc/nginx-unprivileged:1.28-alpine
ARG WORKSPACE
ARG RELEASE=local
LABEL org.opencontainers.image.title="motoparts-${WORKSPACE}" org.opencontainers.image.version="${RELEASE}"
# Where the shell's server fetches the storefront's, the dashboard's and the auth remote's prerendered first screens
# (server-side includes), and the DNS server that resolves them per request (Docker's embedded one
# by default; Kubernetes sets its cluster DNS service). API_INTERNAL_URL: the API that writes the
# part pages' heads, the sitemap and robots.txt; SERVICE_TOKEN: the API's, sent with those calls so
# the sitemap is not limited as anonymous (empty: it is, as the lists are; the heads never are), or
# SERVICE_TOKEN_FILE: a file holding it (a mounted Secret), read at start by service-token.envsh.
ENV STOREFRONT_INTERNAL_URL=http://storefront:8080 DASHBOARD_INTERNAL_URL=http://dashboard:8080 \
    AUTH_INTERNAL_URL=http://auth:8080 NGINX_RESOLVER=127.0.0.11 \
    API_INTERNAL_URL=http://api:5000 SERVICE_TOKEN=""
COPY deploy/nginx.conf /etc/nginx/templates/default.conf.template
# The Content-Security-Policy depends on the config.json mounted at run time (its origins), so it
# is computed at container start by scripts/csp.mjs, the same code the local server runs: Node
# (musl build, from the official Alpine image) and a sourced entrypoint step export CSP_POLICY
# before nginx's template step fills it in.
USER root
RUN apk add --no-cache libstdc++
COPY --from=node:24-alpine /usr/local/bin/node /usr/local/bin/node
COPY scripts/csp.mjs /opt/motoparts/csp.mjs
COPY scripts/site-config.mjs /opt/motoparts/site-config.mjs
COPY --chmod=755 deploy/service-token.envsh /docker-entrypoint.d/18-service-token.envsh
COPY --chmod=755 deploy/site-config.envsh /docker-entrypoint.d/17-site-config.envsh
COPY --chmod=755 deploy/csp.envsh /docker-entrypoint.d/19-csp.envsh
COPY --from=build /app/${WORKSPACE}/dist /usr/share/nginx/html
USER 101
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/config.json"]
