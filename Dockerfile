# One image for every Updown service; the command picks which one runs (the npm script it equals):
#   node --import tsx services/platform/src/main.ts       npm start: every service in one, on PORT (8080)
#   node --import tsx services/platform/src/gateway.main.ts  npm run start:gateway: API, WebSocket, console on PORT (8080)
#   node --import tsx services/order/src/main.ts          npm run start:order: placement API on ORDER_PORT (8083)
#   node --import tsx services/settlement/src/main.ts     npm run start:settlement: ops on SETTLEMENT_PORT (8082)
#   node --import tsx services/price-ingest/src/main.ts   npm run start:price-ingest: ops on PRICE_INGEST_PORT (8081)
# node runs the service directly because npm does not pass SIGTERM on to it: under npm, `docker
# stop` kills the service instead of letting it drain. The npm scripts work too, for a quick try.
# The healthcheck probes /readyz on HEALTHCHECK_PORT: set it to the port of the service that runs.
# Services run their TypeScript sources through tsx (a production dependency), so there is no
# compile step; only the console is built, in the first stage.

# Build stage: every dependency, dev ones included, to build the console.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY schemas/package.json schemas/
COPY api-client/package.json api-client/
COPY verify/package.json verify/
COPY services/runtime/package.json services/runtime/
COPY services/accounts/package.json services/accounts/
COPY services/wallet/package.json services/wallet/
COPY services/order/package.json services/order/
COPY services/settlement/package.json services/settlement/
COPY services/gateway/package.json services/gateway/
COPY services/price-ingest/package.json services/price-ingest/
COPY services/platform/package.json services/platform/
COPY console/package.json console/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build --workspace @updown/console

# Runtime stage: production dependencies only, the sources, the built console; runs as `node`.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 HEALTHCHECK_PORT=8080 DATA_DIR=/app/.data
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY schemas/package.json schemas/
COPY api-client/package.json api-client/
COPY verify/package.json verify/
COPY services/runtime/package.json services/runtime/
COPY services/accounts/package.json services/accounts/
COPY services/wallet/package.json services/wallet/
COPY services/order/package.json services/order/
COPY services/settlement/package.json services/settlement/
COPY services/gateway/package.json services/gateway/
COPY services/price-ingest/package.json services/price-ingest/
COPY services/platform/package.json services/platform/
COPY console/package.json console/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY tsconfig.json tsconfig.base.json ./
COPY schemas schemas
COPY verify verify
COPY services services
# Only the build (and the placeholder page the gateway falls back to): without the console's
# sources `npm start` serves it as it is and never tries to rebuild it (Vite is a dev dependency
# and is not in this image).
COPY console/placeholder console/placeholder
COPY --from=build /app/console/dist console/dist
# DATA_DIR holds the development JWT key when JWT_SECRET is unset; the app user must own it.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 8080 8081 8082 8083
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.HEALTHCHECK_PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--import", "tsx", "services/platform/src/main.ts"]
