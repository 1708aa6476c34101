#!/usr/bin/env bash
# robocaf's two entry points (see README): `./dev.sh match [options]` sets up,
# builds and plays a local match; `./dev.sh test` sets up, builds and runs every test.
set -euo pipefail
cd "$(dirname "$0")"
deploy/setup.sh
case "${1:-}" in
  test) ctest --test-dir build --output-on-failure -j2 ;;
  "") echo "usage: ./dev.sh match [options] | ./dev.sh test | ./dev.sh <robocaf command>" >&2; exit 2 ;;
  *) exec build/robocaf "$@" ;;
esac
