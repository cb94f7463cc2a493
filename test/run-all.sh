#!/usr/bin/env bash
# test/run-all.sh — `npm test`: the type-check and every test project, side by side (the
# type-check takes ~20 s of CPU while the first test files mostly wait on the stack's start).
# Fails if either fails, and says which.
set -uo pipefail
cd "$(dirname "$0")/.."
npm run -s typecheck > .typecheck.log 2>&1 &
typecheck=$!
npx vitest run "$@"
tests=$?
wait "$typecheck"
types=$?
if [ "$types" -ne 0 ]; then
  echo "npm test: the type-check failed:" >&2
  cat .typecheck.log >&2
fi
rm -f .typecheck.log
[ "$tests" -ne 0 ] && echo "npm test: tests failed (exit $tests)" >&2
exit $(( tests != 0 || types != 0 ))
