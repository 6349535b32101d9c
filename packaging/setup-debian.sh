#!/usr/bin/env bash
# Installs the Debian packages Outlier Explorer needs to build, test and run.
# Non-interactive; installs only what is missing; safe to run repeatedly.
#   bash packaging/setup-debian.sh           # everything: the build, the test suite, packaging
#   bash packaging/setup-debian.sh --demo    # the desktop app's build and its screenshots only
#                                            # (run-demo.sh: half the download of the full set)
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config python3   # python3: the build's man pages, completion, icons
  qt6-base-dev libqcustomplot-dev libqcustomplot2.1-qt6   # Qt 6 Widgets/Concurrent/PrintSupport/Test, charts
  qt6-svg-dev                                         # SVG chart export (QSvgGenerator)
  libmongoc-dev libbson-dev zlib1g-dev                     # MongoDB C driver, .bson.gz dumps
  qtkeychain-qt6-dev                                       # secrets in the system keychain
  libqt6sql6-sqlite                                        # the analysis history (Qt SQL, SQLite)
  xvfb xauth                                               # screenshots on a machine without a display
)
demo_only=0
if [ "${1:-}" = "--demo" ]; then
  demo_only=1
fi
[ "$demo_only" -eq 1 ] || packages+=(
  git time util-linux openssl curl                         # benchmark RSS, setpriv, test certificates, fixtures, toxiproxy API
  clang libclang-rt-14-dev                                 # libFuzzer targets (packaging/run-fuzz.sh)
  dpkg-dev lintian desktop-file-utils appstream            # the .deb and its validators (build-deb.sh,
  bash-completion man-db                                   #   tst_package)
  libcurl4 libssl3                                         # mongod 6.0.5 (packaging/install-mongod.sh)
  poppler-utils                                            # pdftotext: tst_report reads a PDF's text
)

# The codegen tests' toolchains (each driver itself comes from its own registry later):
# taken from Debian only where the machine has none of its own. Debian's golang-go is 1.19: it
# only bootstraps the Go >= 1.21 that packaging/install-go.sh fetches from the Go module proxy.
declare -A tools=([node]=nodejs [npm]=npm [javac]=default-jdk-headless [mvn]=maven [go]=golang-go)
if [ "$demo_only" -eq 0 ]; then
  for tool in "${!tools[@]}"; do
    command -v "$tool" >/dev/null || packages+=("${tools[$tool]}")
  done
  python3 -m pip --version >/dev/null 2>&1 || packages+=(python3-pip)
fi

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
