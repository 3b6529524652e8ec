/* Replays inputs through the config loader's fuzz target
 * (tests/fuzz_config.c) without libFuzzer: each file named on the command
 * line is read whole and passed once to LLVMFuzzerTestOneInput, as
 * libFuzzer does with files. make test replays the seed corpus so, in the
 * AddressSanitizer build the unit tests already need; make fuzz links the
 * same target with libFuzzer. Exits 0 when every input ran (a failed
 * property aborts), 2 when a file cannot be read. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The whole of the file at path, malloc'd (at least one byte, so that an
 * empty input is not a NULL pointer); NULL when it cannot be read. */
static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, got;
    uint8_t *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        size_t len = 0;
        uint8_t *data = read_all(argv[i], &len);
        if (!data) {
            fprintf(stderr, "fuzz_replay: cannot read %s\n", argv[i]);
            return 2;
        }
        LLVMFuzzerTestOneInput(data, len);
        free(data);
    }
    printf("fuzz_replay: %d inputs\n", argc - 1);
    return 0;
}
