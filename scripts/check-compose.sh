#!/usr/bin/env bash
# docker-compose.yml cannot run here (no Docker engine); validate it with Debian's docker-compose.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v docker-compose >/dev/null 2>&1; then
  echo "docker-compose is not installed (apt-get install docker-compose); .ci/run installs it." >&2
  exit 1
fi
JWT_SECRET=check-only-secret-0123456789abcdef docker-compose -f docker-compose.yml --profile dev config -q
echo "docker-compose.yml is valid"
