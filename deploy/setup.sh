#!/usr/bin/env bash
# Installs the Debian packages robocaf needs (only those missing) and builds it
# into build/. Safe to run again: both steps are incremental.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make ccache pkg-config protobuf-compiler libprotobuf-dev libcaf-dev
          libzmq3-dev cppzmq-dev libeigen3-dev libgtest-dev libgmock-dev libbenchmark-dev
          nlohmann-json3-dev libssl-dev libopencv-dev procps)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"
