#!/usr/bin/env bash
# Installs the official MongoDB drivers the generated code is tested with, each from its own
# registry, into a per-machine cache (idempotent; later runs only check what is there):
#   node/    the `mongodb` package (npm registry)
#   python/  PyMongo (PyPI), installed with pip --target
#   go/      a module requiring go.mongodb.org/mongo-driver/v2 (Go module proxy), downloaded
#   java/    mongodb-driver-sync and its dependencies (Maven Central), as jars in lib/
# libmongoc for the C snippets comes from Debian (libmongoc-dev, setup-debian.sh).
# Messages go to stderr; the last line on stdout is the cache folder.
set -euo pipefail

node_version=7.9.0
pymongo_version=4.20.0
go_driver_version=v2.10.0
java_driver_version=5.14.0
root="${OE_CACHE_DIR:-$HOME/.cache/outlier-explorer}/codegen-drivers"

say() { echo "install-codegen-drivers: $*" >&2; }
mkdir -p "$root"
# CTest may start this from several fixtures at once: one installs, the others wait.
exec 9>"$root/.lock"
flock 9

if [ ! -f "$root/node/node_modules/mongodb/package.json" ] ||
   ! grep -q "\"version\": \"$node_version\"" "$root/node/node_modules/mongodb/package.json"; then
  say "npm: mongodb@$node_version"
  mkdir -p "$root/node"
  (cd "$root/node" && [ -f package.json ] || echo '{"name":"oe-codegen-test","private":true}' > package.json)
  (cd "$root/node" && npm install --no-audit --no-fund --loglevel=error "mongodb@$node_version" >&2)
fi

if ! PYTHONPATH="$root/python" python3 -c "import pymongo, sys; sys.exit(pymongo.version != '$pymongo_version')" 2>/dev/null; then
  say "pip: pymongo==$pymongo_version"
  rm -rf "$root/python"
  python3 -m pip install --quiet --disable-pip-version-check --target "$root/python" "pymongo==$pymongo_version" >&2
fi

if [ ! -f "$root/go/.downloaded-$go_driver_version" ]; then
  say "go: go.mongodb.org/mongo-driver/v2@$go_driver_version"
  rm -rf "$root/go" && mkdir -p "$root/go"
  # A program that uses the driver, so that go.sum lists every module it needs and the build
  # cache holds the driver compiled (the tests then build only their own code).
  cat > "$root/go/main.go" <<'GO'
package main

import (
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

func main() { _, _ = mongo.Connect(options.Client()) }
GO
  (cd "$root/go" && go mod init oe-codegen-test >&2 2>&1 &&
     go get "go.mongodb.org/mongo-driver/v2@$go_driver_version" >&2 &&
     go mod tidy >&2 && go build -o /dev/null . >&2 &&
     touch ".downloaded-$go_driver_version")
fi

if [ ! -f "$root/java/.downloaded-$java_driver_version" ]; then
  say "maven: org.mongodb:mongodb-driver-sync:$java_driver_version"
  rm -rf "$root/java" && mkdir -p "$root/java"
  cat > "$root/java/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>oe</groupId><artifactId>codegen-test</artifactId><version>1</version>
  <dependencies>
    <dependency>
      <groupId>org.mongodb</groupId><artifactId>mongodb-driver-sync</artifactId>
      <version>$java_driver_version</version>
    </dependency>
  </dependencies>
</project>
POM
  (cd "$root/java" && mvn -q -B dependency:copy-dependencies -DoutputDirectory=lib >&2 &&
     touch ".downloaded-$java_driver_version")
fi

echo "$root"
