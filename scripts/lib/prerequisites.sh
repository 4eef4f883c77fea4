# Installs what the build and tests need beyond a JDK and Maven, from Debian's packages, when missing.
# Sourced by scripts/test and scripts/demo.

ensure_prerequisites() {
  command -v mvn >/dev/null || { echo "Maven (mvn) is required" >&2; exit 1; }
  command -v java >/dev/null || { echo "A JDK 17+ is required" >&2; exit 1; }
}
