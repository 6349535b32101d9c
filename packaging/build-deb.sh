#!/usr/bin/env bash
# Builds the Debian packages (outlier-explorer-cli, for headless servers, and outlier-explorer,
# the desktop app) and the source tarball from this checkout: a Release build (preset
# `package`) with Debian's hardening flags from dpkg-buildflags, then CPack; lintian checks the
# .debs and fails on any error. Install with: sudo apt install ./build-package/dist/*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/setup-debian.sh

# Debian's own compiler and linker flags (fortify, stack protector, relro, bindnow).
# CMake reads CXXFLAGS and LDFLAGS on the first configure; it never reads CPPFLAGS.
eval "$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --export=sh)"
export CXXFLAGS="$CXXFLAGS $CPPFLAGS" LDFLAGS
rm -rf build-package
cmake --preset package >/dev/null
cmake --build --preset package

dist=build-package/dist
(cd build-package && cpack -G DEB -B dist >/dev/null && cpack --config CPackSourceConfig.cmake -B dist >/dev/null)
rm -rf "$dist/_CPack_Packages"
debs=("$dist"/*.deb)
lintian --fail-on error "${debs[@]}"
for deb in "${debs[@]}"; do echo "build-deb: $deb"; done
echo "build-deb: $(ls "$dist"/*.tar.gz)"
