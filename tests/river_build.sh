#!/bin/sh
# Builds and runs the river tests (physics/river*.c): the usual flags, then
# again under AddressSanitizer and UBSan. Run from the repository root.
set -e
CC=${CC:-gcc}
FLAGS="-std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wpedantic -ffp-contract=off -fno-math-errno"
LIBS="$(pkg-config --cflags --libs cmocka) -lm"
mkdir -p build
$CC $FLAGS -O2 physics/river*.c tests/test_river.c $LIBS -o build/test_river
./build/test_river
if [ "${RIVER_ASAN:-1}" = 1 ]; then
    $CC $FLAGS -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
        physics/river*.c tests/test_river.c $LIBS -o build/test_river_asan
    ./build/test_river_asan
fi
