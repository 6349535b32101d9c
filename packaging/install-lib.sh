# Sourced by the packaging/install-*.sh scripts. The caller defines say() and works() (true when
# its argument is a working install).

# install_prelude DEST DEST_DIR LOCK_SECONDS: prints DEST and exits 0 when it already works;
# otherwise creates DEST_DIR and takes its install lock (fd 9) — several CTest fixtures may ask
# at once: one installs, the others wait and then find it installed.
install_prelude() {
  local dest=$1 dest_dir=$2 seconds=$3
  if works "$dest"; then
    echo "$dest"
    exit 0
  fi
  mkdir -p "$dest_dir"
  command -v flock >/dev/null || return 0
  exec 9>"$dest_dir/.install.lock"
  flock -w "$seconds" 9 || { say "error: timed out waiting for another install (lock $dest_dir/.install.lock)"; exit 1; }
  if works "$dest"; then
    echo "$dest"
    exit 0
  fi
}

# output_of PROGRAM ARGS...: what the program prints, read whole. A version check piped into
# `head | grep -q` under pipefail fails now and then by SIGPIPE (the program still writing when
# the reader has gone) although the version is right.
output_of() {
  "$@" 2>/dev/null
}
