#!/usr/bin/env bash
# Sets up, builds, and runs Outlier Explorer on its built-in demo data (no server needed).
# Until the desktop app lands, this is the CLI's analysis of each demo dataset.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/setup-debian.sh
bash packaging/build.sh dev
cli=build/bin/outlier-explorer-cli
demo=build/demo
"$cli" demo-data --out "$demo/data" >/dev/null
for dataset in book_sales activity_feeds viral_posts; do
  echo
  "$cli" analyze --dump "$demo/data/$dataset.bson" --out "$demo/reports/$dataset"
done
echo
echo "CSV reports: $demo/reports/<dataset>/{summary,fields,outliers,recommendations,...}.csv"
