#!/usr/bin/env bash
# Installs the Debian packages Outlier Explorer needs to build, test and run.
# Non-interactive; installs only what is missing; safe to run repeatedly.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev libqcustomplot-dev libqcustomplot2.1-qt6   # Qt 6 Widgets/Concurrent/PrintSupport/Test, charts
  qt6-svg-dev                                         # SVG chart export (QSvgGenerator)
  libmongoc-dev libbson-dev zlib1g-dev                     # MongoDB C driver, .bson.gz dumps
  qtkeychain-qt6-dev                                       # secrets in the system keychain
  xvfb xauth time util-linux openssl python3               # screenshots, benchmark RSS, setpriv, test certificates, fixtures
  clang libclang-rt-14-dev                                 # libFuzzer targets (packaging/run-fuzz.sh)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
