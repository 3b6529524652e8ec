/* libFuzzer target of the config loader (make fuzz). Any input must load or
 * be refused without a crash, leak, hang or out-of-bounds read, and a
 * refused input must change nothing. Whatever loads must survive the round
 * trip: written by config_write_ini and read back, it gives the same
 * settings and then the same bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/build.h"
#include "config/config.h"

/* The INI text of p, malloc'd. */
static char *ini_text(const dinghy_settings *p, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        abort();
    config_write_ini(p, f);
    fclose(f);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const dinghy_settings def = settings_default();
    dinghy_settings p = def;
    diag_list d = {0};
    int rc = config_load_text(&p, "fuzz.ini", (const char *)data, size, &d);
    if (rc != 0 && (d.count == 0 || config_diff(&def, &p, NULL, 0, NULL) != 0))
        abort(); /* refused without a message, or half applied */
    if (rc == 0 && d.count != 0)
        abort();
    diag_free(&d);
    if (rc == 0) {
        config_check(&p, "fuzz.ini", &d);
        diag_free(&d);
        size_t len1, len2;
        char *text1 = ini_text(&p, &len1);
        dinghy_settings q = def;
        if (config_load_text(&q, "round-trip", text1, len1, &d) != 0
            || config_diff(&p, &q, NULL, 0, NULL) != 0)
            abort();
        char *text2 = ini_text(&q, &len2);
        if (len1 != len2 || memcmp(text1, text2, len1) != 0)
            abort();
        free(text1);
        free(text2);
        diag_free(&d);
    }
    /* The same text through the layered build (file, then a --set). */
    const char *sets[] = {"dinghy.stiffness=800"};
    config_source src = {"fuzz.ini", sets, 1};
    dinghy_settings built = def;
    config_build_text(&src, (const char *)data, size, &built, &d);
    diag_free(&d);
    return 0;
}
