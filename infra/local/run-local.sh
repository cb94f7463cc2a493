#!/usr/bin/env bash
# infra/local/run-local.sh — `npm start`: the whole system on this machine, on real parts.
# Starts what is not running (HBase + REST gateway, ElasticMQ), applies the schema, prints
# where everything is, and stays up until Ctrl-C; then stops only what it started.
set -euo pipefail
REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STACK="$REPO_DIR/infra/local/stack.sh"
cd "$REPO_DIR"

started=()
cleanup() {
  trap - INT TERM EXIT
  for ((i=${#started[@]}-1; i>=0; i--)); do bash "$STACK" stop "${started[$i]}" || true; done
}
trap cleanup INT TERM EXIT

for component in hbase queue; do
  if ! bash "$STACK" status "$component" >/dev/null 2>&1; then
    bash "$STACK" start "$component"
    started+=("$component")
  fi
done
eval "$(bash "$STACK" env)"
export HBASE_REST_URL SQS_ENDPOINT

npm run --silent schema

cat <<MSG

weibo-serverless is running locally
  HBase REST gateway : $HBASE_REST_URL   (namespace ${HBASE_NAMESPACE:-weibo})
  SQS (ElasticMQ)    : $SQS_ENDPOINT
  logs               : $REPO_DIR/.local/*/logs/
Press Ctrl-C to stop$( ((${#started[@]})) && echo " (stops: ${started[*]})" || echo " (nothing was started here; nothing will be stopped)").
MSG
# Stay in the foreground; the trap stops what we started.
while true; do sleep 3600 & wait $!; done
