#!/bin/sh
# Builds and runs the water-physics kernel tests (physics/hydro.c). CC=clang, or EXTRA="-fsanitize=address,undefined -g", to vary.
cd "$(dirname "$0")/.." && ${CC:-gcc} -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wpedantic -ffp-contract=off -fno-math-errno -O2 ${EXTRA:-} physics/hydro.c tests/test_hydro.c $(pkg-config --cflags --libs cmocka) -lm -o /tmp/test_hydro && /tmp/test_hydro
