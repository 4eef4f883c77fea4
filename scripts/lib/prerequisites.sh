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

# What only the tests need beyond ensure_prerequisites: the deployment examples' checks (kubectl itself is not
# installed here: where it is missing, KubernetesManifestsTest is skipped and says why).
ensure_test_prerequisites() {
  ensure_prerequisites
  ensure_kube_openapi
  ensure_dockerfile_utils
}

# The Kubernetes API's OpenAPI definitions, which the deployment examples' test validates the manifests against
# (integration-tests, it/deploy/KubernetesOpenApi): test data of Debian's golang-k8s-kube-openapi-dev. The package
# is extracted, not installed (installing it would pull in the Go toolchain).
ensure_kube_openapi() {
  local target="${LIMITER_KUBE_OPENAPI:-$HOME/.cache/limiter/kube-openapi}"
  [ -d "$target/usr/share/gocode/src/k8s.io/kube-openapi" ] && return 0
  echo "== extracting golang-k8s-kube-openapi-dev (Debian package) into $target for the Kubernetes manifests' test"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  local download
  download="$(mktemp -d)"
  if ! (cd "$download" && apt-get download golang-k8s-kube-openapi-dev >/dev/null 2>&1); then
    $sudo apt-get update -qq
    (cd "$download" && apt-get download golang-k8s-kube-openapi-dev >/dev/null 2>&1)
  fi
  mkdir -p "$target"
  dpkg-deb -x "$download"/golang-k8s-kube-openapi-dev_*.deb "$target"
  rm -rf "$download"
}

# A Dockerfile parser and linter (npm package dockerfile-utils, the one behind the Docker language server) for the
# examples' Dockerfiles (integration-tests, it/deploy/DockerfilesTest): no Docker engine runs here to build them.
ensure_dockerfile_utils() {
  local target="${LIMITER_DOCKERFILE_UTILS:-$HOME/.cache/limiter/dockerfile-utils}"
  [ -x "$target/node_modules/.bin/dockerfile-utils" ] && return 0
  command -v npm >/dev/null || { echo "npm (Node.js) is required for the Dockerfile checks" >&2; exit 1; }
  echo "== installing dockerfile-utils (npm) into $target for the Dockerfile checks"
  mkdir -p "$target"
  npm install --silent --no-audit --no-fund --prefix "$target" dockerfile-utils@0.16.3 >/dev/null
}
