# Installs what the build and tests need beyond a JDK and Maven, from Debian's packages, when missing.
# Sourced by scripts/test and scripts/demo.

ensure_prerequisites() {
  command -v mvn >/dev/null || { echo "Maven (mvn) is required" >&2; exit 1; }
  command -v java >/dev/null || { echo "A JDK 17+ is required" >&2; exit 1; }
  if ! command -v redis-server >/dev/null; then
    echo "== installing redis-server (Debian package) for the distributed-mode tests"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq redis-server >/dev/null
  fi
  # The Debian package starts a system-wide server on 6379; our tests start their own on free ports.
  if ! command -v promtool >/dev/null; then
    echo "== installing prometheus (Debian package) for promtool, the metrics tests' parser"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  fi
  # Only promtool is used; the package's own server is not needed (where the package starts it, it listens on 9090).
}
