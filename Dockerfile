# syntax=docker/dockerfile:1
# Node 24, the active LTS (20 reached its end of life in April 2026; the package still runs on it).
# Build stage: the whole toolchain, from the lock file.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts off: `prepare` would build before the sources are here; the build runs below.
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.js ./scripts/
COPY src ./src
RUN npm run build

# Run stage: production dependencies and the built server only.
FROM node:24-bookworm-slim AS run
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY fixtures/default.json fixtures/states.json ./fixtures/
COPY openapi.json ./
# The inspector (/__admin/ui): plain modules, served as they are, nothing fetched from elsewhere.
COPY ui/*.html ui/*.js ui/*.css ./ui/
# The image's node user: the emulator needs no privilege.
USER node
EXPOSE 8080
# No curl in the image: node itself asks the health route (which --admin-token leaves open).
HEALTHCHECK --interval=5s --timeout=3s --start-period=5s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/__admin/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/cli.js", "--host", "0.0.0.0"]
