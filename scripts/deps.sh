#!/usr/bin/env bash
# Installs the Debian packages dinghy needs, if any are missing, and only
# those of the groups asked for. Idempotent and silent when all are there.
#   scripts/deps.sh build     compile and run the program (make, make run)
#   scripts/deps.sh test      also the test suites (make test)
#   scripts/deps.sh bench     also the benchmark plots (make bench)
#   scripts/deps.sh install   also the man page (make install, make test)
#   DINGHY_NO_DEPS=1 make ... skips this script entirely
set -euo pipefail

build=(
    make gcc pkg-config
    libinih-dev                           # INI parsing
    libsdl2-dev libsdl2-mixer-dev         # sound
    libglfw3-dev libglew-dev libstb-dev   # the renderer: window + GL context, GL loader, PNG + HUD text
    libcglm-dev                           # the renderer's matrix and vector maths
)
test=(
    libcmocka-dev                         # unit tests
    clang libomp-dev libclang-rt-14-dev   # ThreadSanitizer build of the tick (clang + libomp), the fuzzer
    xvfb xauth libgl1-mesa-dri            # renderer tests and captures without a display or GPU
    man-db                                # make test-install renders the man page (man -l)
    python3 universal-ctags               # make test-structure: who calls whom, from the function definitions
)
bench=(
    gnuplot-nox                           # make bench plots
)
install=(
    help2man                              # make install: the man page dinghy.1 from --help
)

packages=("${build[@]}")
for group in "$@"; do
    case "$group" in
    build) ;;
    test) packages+=("${test[@]}" "${install[@]}") ;; # make test runs make install
    install) packages+=("${install[@]}") ;;
    bench) packages+=("${bench[@]}") ;;
    *) echo "deps: unknown group '$group' (build, test, bench or install)" >&2; exit 2 ;;
    esac
done

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=()
if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo=(sudo)
    else
        echo "deps: missing Debian packages: ${missing[*]}" >&2
        echo "deps: run as root: apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
fi

echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt_get=("${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 -q)
if ! "${apt_get[@]}" install -y --no-install-recommends "${missing[@]}" >/tmp/dinghy-deps.log 2>&1; then
    # The package lists may be missing or stale on a fresh machine.
    "${apt_get[@]}" update >>/tmp/dinghy-deps.log 2>&1
    if ! "${apt_get[@]}" install -y --no-install-recommends "${missing[@]}" >>/tmp/dinghy-deps.log 2>&1; then
        echo "deps: apt-get install failed; see /tmp/dinghy-deps.log" >&2
        tail -n 20 /tmp/dinghy-deps.log >&2
        exit 1
    fi
fi
echo "deps: installed ${missing[*]}" >&2
