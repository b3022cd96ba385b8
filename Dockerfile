# Driftwatch in a container (docs/scaling.md#container-recipe). These development machines build
# no images: test/structure/container-recipe.test.ts keeps this file in step with the code (what
# it copies exists or is built, the commands and settings it uses are real).

# The compiled build: dist/ (scripts/build.mjs), from the sources and every dependency.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY scripts ./scripts
COPY cli ./cli
COPY src ./src
RUN npm run build

# Production dependencies only; install scripts off (`prepare` would build from sources).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts

# The image: the compiled build, production node_modules, the launcher and package.json.
FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY cli/driftwatch.cjs cli/compiled.cjs cli/fast-start.cjs ./cli/
# The embedded database and a generated master key live here when DATABASE_URL is unset.
RUN mkdir -p /var/lib/driftwatch && chown node:node /var/lib/driftwatch
ENV DATA_DIR=/var/lib/driftwatch PORT=8080 HOST=0.0.0.0 LOG_FORMAT=json
USER node
EXPOSE 8080
# Ready means the database answers and the process is not draining (503 while it stops).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/v1/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "cli/driftwatch.cjs"]
CMD ["serve", "--role", "all"]
