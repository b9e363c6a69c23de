# One image for every Updown service; the command picks which one runs.
# Build stage: install with dev dependencies to build the console.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY schemas/package.json schemas/
COPY services/runtime/package.json services/runtime/
COPY services/wallet/package.json services/wallet/
COPY services/gateway/package.json services/gateway/
COPY services/platform/package.json services/platform/
COPY console/package.json console/
RUN npm ci --no-audit --no-fund
COPY . .
RUN if [ -f console/vite.config.ts ]; then npm run build --workspace @updown/console; fi

# Runtime stage: production dependencies only, running as the unprivileged `node` user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY schemas/package.json schemas/
COPY services/runtime/package.json services/runtime/
COPY services/wallet/package.json services/wallet/
COPY services/gateway/package.json services/gateway/
COPY services/platform/package.json services/platform/
COPY console/package.json console/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/schemas schemas
COPY --from=build /app/services services
COPY --from=build /app/console console
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["npm", "start"]
