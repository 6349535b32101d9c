#!/usr/bin/env bash
# Sets up, builds, and runs Outlier Explorer on its built-in demo data (no server needed).
# With a display it opens the desktop explorer (`outlier-explorer --demo`); on a headless
# machine it renders every tab under Xvfb into build/demo/screenshots/ and says where.
set -euo pipefail
cd "$(dirname "$0")/.."
# Only what the desktop app's build and its screenshots need (run-tests.sh installs the rest).
bash packaging/setup-debian.sh --demo
# The desktop app and what it links (core, ui, the report library), not the test suite: the
# demo and its screenshots load nothing else at run time (the report plugin is the CLI's).
# A fresh tree builds with the demo preset: the same build/ as dev, at -O1 without debug info,
# about half dev's compile time. A build/ the test command (or a developer) configured is
# reused as it is: switching its flags would rebuild it now and again at the next test run.
preset=demo
if [ -f build/CMakeCache.txt ] && ! grep -qx 'CMAKE_BUILD_TYPE:STRING=Demo' build/CMakeCache.txt; then
  preset=dev
fi
bash packaging/build.sh "$preset" outlier-explorer
gui=build/bin/outlier-explorer
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$gui" --demo "$@"
fi
out=build/demo/screenshots
mkdir -p "$out"
echo "run-demo: no display; rendering each tab of the demo under Xvfb"
for tab in overview sizes arrays outliers split; do
  xvfb-run -a -s "-screen 0 1600x1000x24" "$gui" --demo --screenshot "$out/$tab.png" --tab "$tab"
done
# The Shape tab on the dataset built to have every schema outlier of shape.
xvfb-run -a -s "-screen 0 1600x1000x24" "$gui" --demo --dataset device_readings \
  --screenshot "$out/shape.png" --tab shape
echo "run-demo: screenshots in $out/ (run with a display for the interactive window)"
