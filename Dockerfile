# pinwatch as a container image, for CI systems that prefer images (GitLab CI,
# Tekton, Argo Workflows). Build: docker build -t pinwatch . ; run on a checkout:
#   docker run --rm -v "$PWD:/repo" pinwatch check
# node-slim, not distroless: pinwatch reads history through the git binary.
# Pin the two base images by digest when you build it (pinwatch lint says so).

FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json rolldown.config.mjs ./
COPY src ./src
COPY bin ./bin
COPY schemas ./schemas
RUN npm run build --silent && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/pinwatch
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/bin ./bin
COPY --from=build /src/schemas ./schemas
COPY LICENSE ./
COPY docker/pinwatch.sh /usr/local/bin/pinwatch
WORKDIR /repo
ENTRYPOINT ["pinwatch"]
CMD ["check"]
