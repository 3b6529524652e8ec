/* The progress line of a long headless run (app/progress.h): quiet for the
 * first PROGRESS_AFTER seconds and when there is no terminal, then
 * simulated time, real-time factor and time left, rewritten in place at
 * most every PROGRESS_EVERY seconds, and cleared at the end. */
#include "tests/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/progress.h"

typedef struct {
    char *text;
    size_t len;
    FILE *f;
} sink;

static void sink_open(sink *s)
{
    s->text = NULL;
    s->len = 0;
    s->f = open_memstream(&s->text, &s->len);
    assert_non_null(s->f);
}

static void sink_close(sink *s)
{
    fclose(s->f);
    free(s->text);
}

static void test_quiet_at_first(void **state)
{
    (void)state;
    sink s;
    sink_open(&s);
    progress p;
    progress_begin(&p, s.f, 20.0, 100.0);
    progress_update(&p, 1.0, 100.0 + PROGRESS_AFTER - 0.1);
    progress_end(&p);
    fflush(s.f);
    assert_int_equal(s.len, 0);
    sink_close(&s);
}

static void test_line_after_ten_seconds(void **state)
{
    (void)state;
    sink s;
    sink_open(&s);
    progress p;
    progress_begin(&p, s.f, 20.0, 0.0);
    /* 5 s simulated in 10 s: 0.5x, 15 s left to simulate: 30 s */
    progress_update(&p, 5.0, 10.0);
    fflush(s.f);
    assert_string_equal(s.text, "\rdinghy: simulated 5.0 of 20.0 s, 0.5x real time, about 30 s "
                        "left\033[K");
    /* too soon for another line */
    progress_update(&p, 5.1, 10.0 + PROGRESS_EVERY / 2);
    fflush(s.f);
    assert_int_equal(strchr(s.text + 1, '\r'), NULL);
    /* the next one, then cleared at the end */
    progress_update(&p, 12.0, 16.0);
    progress_end(&p);
    fflush(s.f);
    const char *next = strchr(s.text + 1, '\r');
    assert_non_null(next);
    assert_string_equal(next, "\rdinghy: simulated 12.0 of 20.0 s, 0.75x real time, about 11 s "
                        "left\033[K\r\033[K");
    sink_close(&s);
}

static void test_no_terminal_is_quiet(void **state)
{
    (void)state;
    progress p;
    progress_begin(&p, NULL, 20.0, 0.0); /* what a run writes when stderr is no terminal */
    progress_update(&p, 5.0, 60.0);
    progress_end(&p);
    assert_int_equal(p.shown, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quiet_at_first),
        cmocka_unit_test(test_line_after_ten_seconds),
        cmocka_unit_test(test_no_terminal_is_quiet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
