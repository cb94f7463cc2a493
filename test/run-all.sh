#!/usr/bin/env bash
# test/run-all.sh — `npm test`: the static checks (type-check, then lint, format and the import
# rules: npm run lint) and every test project, side by side (the checks take ~30 s of CPU while
# the first test files mostly wait on the stack's start). Fails if either fails, and says which.
set -uo pipefail
cd "$(dirname "$0")/.."
(npm run -s typecheck && npm run -s lint) > .checks.log 2>&1 &
checks=$!
npx vitest run "$@"
tests=$?
wait "$checks"
static=$?
if [ "$static" -ne 0 ]; then
  echo "npm test: the static checks failed (npm run typecheck, npm run lint):" >&2
  cat .checks.log >&2
fi
rm -f .checks.log
[ "$tests" -ne 0 ] && echo "npm test: tests failed (exit $tests)" >&2
exit $(( tests != 0 || static != 0 ))
