#!/usr/bin/env bash
# infra/ci/python-tools.sh — the template checkers from PyPI, pinned, in a virtualenv of their
# own; prints the venv's bin folder. Used by the template test
# (test/packaging/serverless-package.test.ts) and .ci/run.
#
# The venv lives in the user's cache, one per set of pins and Python version
# ($XDG_CACHE_HOME/weibo-serverless/py-<hash>, default ~/.cache/…; WEIBO_TOOLS_CACHE overrides):
# installing checkov costs about a minute of CPU, and every clone on the machine can share the
# same pinned install, as they share ~/.m2's jars and pip's own wheel cache. The first run on a
# machine installs; later runs, in any clone, reuse it. A lock makes concurrent runs wait for one
# install; a venv whose install did not finish (no .complete) is made again.
set -euo pipefail
# Bump together with the baseline (infra/ci/checkov-baseline.json) when a checker's rules change.
CFN_LINT=1.58.0
CHECKOV=3.3.30
PINS="cfn-lint==$CFN_LINT checkov==$CHECKOV"
CACHE="${WEIBO_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/weibo-serverless}"
VENV="$CACHE/py-$(printf '%s %s' "$PINS" "$(python3 --version 2>&1)" | sha256sum | cut -c1-12)"
mkdir -p "$CACHE"
exec 9>"$CACHE/python-tools.lock"
flock 9
if [ ! -f "$VENV/.complete" ]; then
  rm -rf "$VENV"
  python3 -m venv "$VENV" >&2
  # shellcheck disable=SC2086 # PINS is a list of requirements
  "$VENV/bin/pip" install --quiet --disable-pip-version-check $PINS >&2
  touch "$VENV/.complete"
fi
echo "$VENV/bin"
