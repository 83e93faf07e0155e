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
COPY scripts/webpack-config.cjs scripts/prerender.cjs scripts/index.html scripts/
COPY contracts contracts
COPY state state
COPY ${WORKSPACE} ${WORKSPACE}
RUN npm run build -w ${WORKSPACE}

FROM nginx:1.27-alpine
ARG WORKSPACE
# Where the shell's server fetches the storefront's prerendered hero (server-side include), and
# the DNS server that resolves it per request (Docker's embedded one by default).
ENV STOREFRONT_INTERNAL_URL=http://storefront NGINX_RESOLVER=127.0.0.11
COPY deploy/nginx.conf /etc/nginx/templates/default.conf.template
COPY --from=build /app/${WORKSPACE}/dist /usr/share/nginx/html
