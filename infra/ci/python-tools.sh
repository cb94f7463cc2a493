#!/usr/bin/env bash
# infra/ci/python-tools.sh — the template checkers from PyPI, pinned, in a virtualenv of the
# project's own (.local/py; idempotent: a second run installs nothing). Used by the template
# test (test/integration/serverless-package.test.ts) and .ci/run; prints the venv's bin folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=.local/py
# Bump together with the baseline (infra/ci/checkov-baseline.yml) when a checker's rules change.
CFN_LINT=1.58.0
CHECKOV=3.3.30
if [ ! -x "$VENV/bin/cfn-lint" ] || [ ! -x "$VENV/bin/checkov" ] || [ "$(cat "$VENV/.pins" 2>/dev/null)" != "$CFN_LINT $CHECKOV" ]; then
  python3 -m venv "$VENV" >&2
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "cfn-lint==$CFN_LINT" "checkov==$CHECKOV" >&2
  echo "$CFN_LINT $CHECKOV" > "$VENV/.pins"
fi
echo "$PWD/$VENV/bin"
