# dinghy: make, make run, make test, make bench, make clean.
# Honours CC, CFLAGS, LDFLAGS, PREFIX. DINGHY_NO_DEPS=1 skips the package check.
#
# The build follows the layers (docs/architecture.md): the river world,
# the physics core, the spray, the shared scenes and reference tick, config,
# audio, render and app are one static library each; the program and every
# test binary link the libraries of the layers they use, and no more.

CC      ?= cc
CFLAGS  ?= -O3 -march=native -g
PREFIX  ?= /usr/local
# Always on: the language, warnings, and what keeps the tick deterministic:
# no FMA contraction and no fast-math (they change bits); -fno-math-errno
# only lets sqrtf vectorise and changes no result.
BASEFLAGS = -std=c11 -I. -Iinclude -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wpedantic \
            -ffp-contract=off -fno-math-errno -fno-trapping-math -fopenmp -MMD -MP
B = build
objs = $(patsubst %.c,$(B)/$(1)/%.o,$(2))
lib  = $(B)/$(1)/libdinghy_$(2).a
.SECONDARY:
.SECONDEXPANSION:
.DELETE_ON_ERROR:

.PHONY: all deps-build deps-test deps-bench run install clean test test-unit test-asan \
        test-tsan test-cli test-render test-config test-audio test-docs test-structure bench bench-commit fuzz fuzz-corpus
all: dinghy

# ---- packages: installed before anything compiles (order-only prerequisites) ----
deps-build:
ifndef DINGHY_NO_DEPS
	@scripts/deps.sh build
endif
deps-test:
ifndef DINGHY_NO_DEPS
	@scripts/deps.sh build test
endif
deps-bench:
ifndef DINGHY_NO_DEPS
	@scripts/deps.sh build bench
endif

# ---- layers: sources, the pkg-config packages they link, and the libraries ----
LAYERS      = app render audio config shared spray core river  # in link order: each uses only those after it
river_SRC   = $(wildcard river/*.c)
core_SRC    = $(wildcard physics/*/*.c)
spray_SRC   = $(wildcard spray/*.c)
shared_SRC  = $(wildcard scenes/*.c reference/*.c)
config_SRC  = $(wildcard config/*.c)
audio_SRC   = $(wildcard audio/*.c)
render_SRC  = $(wildcard render/*.c)
app_SRC     = $(wildcard app/*.c)
river_PKG   =
core_PKG    =
spray_PKG   =
shared_PKG  =
config_PKG  = inih
audio_PKG   = sdl2 SDL2_mixer
render_PKG  = glfw3 glew stb
app_PKG     =
# Libraries of a list of layers (highest first, as the linker wants them)
# and the link flags of their packages; `=` so that pkg-config runs at link
# time, after the packages are installed.
libs     = $(foreach l,$(2),$(call lib,$(1),$(l)))
pkglibs  = $(shell pkg-config --libs $(foreach l,$(1),$($(l)_PKG)) 2>/dev/null) -lm

define LIB_RULE
$(call lib,$(1),$(2)): $(call objs,$(1),$($(2)_SRC))
	@rm -f $$@
	$(AR) rcs $$@ $$^
endef
VARIANTS = rel asan tsan fuzz
$(foreach v,$(VARIANTS),$(foreach l,$(LAYERS),$(eval $(call LIB_RULE,$(v),$(l)))))

# ---- the program ----
# gcc turns the kernels' short row copies (16 floats) back into calls of
# memcpy, which cost more than the copies: kept inline where the compiler
# takes the flag (it changes no result).
INLINE_COPIES := $(shell $(CC) -fno-tree-loop-distribute-patterns -Werror -x c -c /dev/null \
                   -o /dev/null 2>/dev/null && echo -fno-tree-loop-distribute-patterns)
$(B)/rel/%.o: %.c | deps-build
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) $(INLINE_COPIES) -c $< -o $@

# The benchmark prints the flags it was built with.
BUILD_FLAGS := $(CFLAGS)
$(B)/rel/app/bench.o: CFLAGS += -DDINGHY_CFLAGS='"$(BUILD_FLAGS)"'

dinghy: $(B)/rel/dinghy.o $(call libs,rel,$(LAYERS))
	$(CC) $(BASEFLAGS) $(CFLAGS) $^ $(LDFLAGS) $(call pkglibs,$(LAYERS)) -o $@

run: all
	@./dinghy

# ---- install, by the GNU conventions: make install [PREFIX=/usr]
# [DESTDIR=/stage] [bindir=... mandir=... datadir=...]; make uninstall
# with the same variables removes exactly what it put ----
.PHONY: uninstall deps-install test-install
prefix      = $(PREFIX)
exec_prefix = $(prefix)
bindir      = $(exec_prefix)/bin
datarootdir = $(prefix)/share
datadir     = $(datarootdir)
mandir      = $(datarootdir)/man
man1dir     = $(mandir)/man1
INSTALL         = install
INSTALL_PROGRAM = $(INSTALL) -m 755
INSTALL_DATA    = $(INSTALL) -m 644
# what make install puts, and make uninstall removes
INSTALLED = $(DESTDIR)$(bindir)/dinghy $(DESTDIR)$(man1dir)/dinghy.1 \
            $(DESTDIR)$(datadir)/dinghy/dinghy.ini

deps-install:
ifndef DINGHY_NO_DEPS
	@scripts/deps.sh build install
endif
# The man page is the program's --help (help2man, Debian's help2man); run
# through PATH so that its usage line says "dinghy", not "./dinghy".
$(B)/dinghy.1: dinghy | deps-install
	@mkdir -p $(dir $@)
	PATH="$(CURDIR):$$PATH" help2man --no-info --output=$@ \
	  --name="soft-body inflatable rings tumbling down river rapids" dinghy

install: dinghy $(B)/dinghy.1
	$(INSTALL) -d $(DESTDIR)$(bindir) $(DESTDIR)$(man1dir) $(DESTDIR)$(datadir)/dinghy
	$(INSTALL_PROGRAM) dinghy $(DESTDIR)$(bindir)/dinghy
	$(INSTALL_DATA) $(B)/dinghy.1 $(DESTDIR)$(man1dir)/dinghy.1
	$(INSTALL_DATA) dinghy.ini $(DESTDIR)$(datadir)/dinghy/dinghy.ini

# Also the directories install made, once empty: dinghy's own always; in
# a staging DESTDIR every empty one up to DESTDIR (on a live system bin/,
# share/man/ ... stay, as the GNU conventions want).
uninstall:
	rm -f $(INSTALLED)
	rmdir $(DESTDIR)$(datadir)/dinghy 2>/dev/null || true
ifneq ($(DESTDIR),)
	@for d in $(bindir) $(man1dir) $(datadir); do \
	  while [ "$$d" != / ] && [ "$$d" != . ] && rmdir "$(DESTDIR)$$d" 2>/dev/null; do \
	    d=$$(dirname "$$d"); done; done
endif

# ---- the docs' pictures, made again by the program as it is now:
# docs/pictures/pictures.sh runs each row of docs/pictures/pictures.txt
# (scripted captures, --input docs/pictures/*.txt); PICTURES="a.png b.png"
# makes only those ----
.PHONY: pictures
pictures: dinghy | deps-test
	@$(XVFB) bash docs/pictures/pictures.sh ./dinghy $(PICTURES)

# ---- make docs: the docs made from the program, to commit: the table of
# config keys from its parameter table (test-docs fails when it is stale) ----
.PHONY: docs
docs: dinghy
	@bash scripts/config_keys.sh ./dinghy >docs/guide/config-keys.md.tmp \
	  || { rm -f docs/guide/config-keys.md.tmp; exit 1; }
	@mv docs/guide/config-keys.md.tmp docs/guide/config-keys.md
	@echo "docs: wrote docs/guide/config-keys.md"

clean:
	rm -rf $(B) dinghy

# ---- tests: each binary links the layers it tests ----
# test_X links TEST_LAYERS_test_X (default: the core, the river, and the
# scenes and reference tick of shared, which tests/support.c uses).
TESTS = $(patsubst tests/%.c,%,$(wildcard tests/test_*.c))
TEST_LAYERS_CORE        = shared core river
TEST_LAYERS_test_spray  = shared spray core river
TEST_LAYERS_test_config = config shared spray core river
TEST_LAYERS_test_watch  = app config shared spray core river
TEST_LAYERS_test_panel  = app config shared spray core river
TEST_LAYERS_test_audio  = audio $(TEST_LAYERS_CORE)
TEST_LAYERS_test_render = $(LAYERS)
TEST_LAYERS_test_pointer = $(LAYERS)
TEST_LAYERS_test_snapshot = app shared core river
TEST_LAYERS_test_progress = app shared core river
test_layers = $(or $(TEST_LAYERS_$(1)),$(TEST_LAYERS_CORE))
TEST_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)
# test_no_crossing is issue 46's acceptance test: the contact on main fails
# it (it repairs after the fact), so make check-contact runs it, not make test
UNIT = $(filter-out test_render test_audio test_no_crossing,$(TESTS))
# More sources of tests/ a test links besides support.c (TEST_SRC_test_X):
# the skin checker (tests/skin_check.h), its own geometry and nothing of
# physics/, and the crossing scenes built on it.
CHECK_SRC = tests/skin_check.c tests/check_inside.c tests/check_pairs.c tests/check_winding.c \
            tests/check_tri_tri.c tests/check_predicates.c tests/check_mesh.c
CROSSING_SRC = $(CHECK_SRC) tests/crossing_cases.c
TEST_SRC_test_skin_check  = $(CHECK_SRC)
TEST_SRC_test_no_crossing = $(CROSSING_SRC)
test_objs = $(call objs,$(1),$(TEST_SRC_$(2)))

$(B)/rel/tests/%.o: tests/%.c | deps-test
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) -c $< -o $@

$(B)/rel/test_%: $(B)/rel/tests/test_%.o $(B)/rel/tests/support.o $$(call test_objs,rel,test_$$*) \
                 $$(call libs,rel,$$(call test_layers,test_$$*))
	$(CC) $(BASEFLAGS) $(CFLAGS) $^ $(LDFLAGS) $(TEST_LIBS) $(call pkglibs,$(call test_layers,test_$*)) -o $@

# ---- make test: first every binary it runs, built as many at a time as
# there are cores (or with the job slots of make -j); then the jobs, each a
# make target, run by tests/run.sh TEST_JOBS at a time (default: the
# cores): one line per job as it ends, with its wall and CPU seconds; a
# failed job's whole output after its line; every job's output in
# build/test-logs/ (TEST_VERBOSE=1 prints them all). The exit code is
# non-zero when any job fails. The sanitizer builds run the short cases
# (DINGHY_TEST_QUICK=1, tests/support.h); the long simulations run once, in
# the optimised build. The jobs start longest first (LONGEST below), so
# that the cores stay busy to the end; none needs the machine to itself
# (tests/run.sh can run a job written !job alone; none is now: the thread
# counts of test_parallel compare hashes, not times). make test-times: the
# slowest tests.
.PHONY: test-build test-times
NPROC     := $(shell nproc 2>/dev/null || echo 1)
# Two jobs at a time each start OpenMP threads: waiting threads sleep
# instead of spinning a core the other job needs (the program does so too;
# a value set in the environment wins).
export OMP_WAIT_POLICY ?= passive
TEST_JOBS ?= $(NPROC)
TEST_LOGS  = $(B)/test-logs
# -jNPROC for the build's sub-make, unless this make was given -j itself
# (then the sub-make shares its job slots)
SUBJOBS    = $(if $(filter -j% --jobserver%,$(MAKEFLAGS)),,-j$(NPROC))
# $(call run_jobs,BINARIES,JOBS)
define run_jobs
+@$(MAKE) --no-print-directory $(SUBJOBS) test-build TEST_GOALS="$(1)"
+@bash tests/run.sh "$(MAKE)" $(TEST_JOBS) $(TEST_LOGS) $(2)
endef

TSAN_UNIT  = test_parallel test_spray test_snapshot
UNIT_BINS  = $(addprefix $(B)/rel/,$(UNIT))
ASAN_BINS  = $(addprefix $(B)/asan/,$(UNIT))
TSAN_BINS  = $(addprefix $(B)/tsan/,$(TSAN_UNIT))
RENDER_BINS = dinghy $(B)/rel/test_render $(B)/asan/test_render
AUDIO_BINS = dinghy $(B)/rel/test_audio $(B)/tsan/test_audio $(B)/rel/audio_probe
CONFIG_BINS = dinghy $(B)/asan/fuzz_replay
TEST_BINS  = $(sort $(UNIT_BINS) $(ASAN_BINS) $(TSAN_BINS) $(RENDER_BINS) $(AUDIO_BINS) \
             $(CONFIG_BINS) $(B)/dinghy.1)

# The jobs of each suite (the run-* targets below).
UNIT_RUN    = $(addprefix unit-,$(UNIT))
ASAN_RUN    = $(addprefix asan-,$(UNIT))
TSAN_RUN    = $(addprefix tsan-,$(TSAN_UNIT))
RENDER_RUN  = render-asan render-unit render-cli
AUDIO_RUN   = unit-test_audio tsan-test_audio audio-cli
CONFIG_RUN  = config-cli config-reload fuzz-corpus
TEST_RUN    = $(UNIT_RUN) $(RENDER_RUN) $(TSAN_RUN) $(ASAN_RUN) $(AUDIO_RUN) test-cli \
              $(CONFIG_RUN) test-install test-docs test-structure
# Jobs start longest first, so that the cores stay busy to the end: these
# (the longest by make test's own lines on a 2-core AMD EPYC Zen 3, in
# order), then the rest as listed. A job that takes longer than the list
# says moves up it.
LONGEST     = unit-test_skin_membrane tsan-test_parallel unit-test_parallel unit-test_rapids \
              asan-test_parallel tsan-test_spray asan-test_skin_membrane test-cli unit-test_pointer \
              render-unit asan-test_pointer asan-test_spray render-asan asan-test_overlap \
              asan-test_physics render-cli asan-test_rapids asan-test_skin_sim fuzz-corpus \
              asan-test_config unit-test_water unit-test_contact unit-test_spray unit-test_overlap \
              unit-test_physics asan-test_membrane audio-cli test-docs
longest_first = $(filter $(1),$(LONGEST)) $(filter-out $(LONGEST),$(1))

test: | deps-test deps-install
	@mkdir -p $(TEST_LOGS) && date +%s >$(TEST_LOGS)/started
	$(call run_jobs,$(TEST_BINS),$(call longest_first,$(TEST_RUN)))
	@echo "make test: all suites passed ($$(( $$(date +%s) - $$(cat $(TEST_LOGS)/started) )) s, the build included)"
# the binaries TEST_GOALS (default: all that make test runs)
TEST_GOALS ?= $(TEST_BINS)
test-build: $$(TEST_GOALS) | deps-test deps-install
	@:

test-unit: | deps-test
	$(call run_jobs,$(UNIT_BINS),$(call longest_first,$(UNIT_RUN)))

# One job: a test binary of the optimised build, or of a sanitizer build
# with its short cases.
ASAN_ENV = ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 DINGHY_TEST_QUICK=1
TSAN_ENV = TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=1" DINGHY_TEST_QUICK=1
unit-%: $(B)/rel/%
	@./$<
asan-%: $(B)/asan/%
	@$(ASAN_ENV) ./$<
tsan-%: $(B)/tsan/%
	@$(TSAN_ENV) ./$<

# The slowest tests of the optimised build (wall and CPU seconds, each
# binary run alone): TIMES_N=10 of them, from tests/times.py.
TIMES_N ?= 10
test-times: $(UNIT_BINS) $(B)/rel/test_render $(B)/rel/test_audio
	@$(XVFB) python3 tests/times.py --quiet -n $(TIMES_N) $^

# make check-contact: issue 46's "no skin through a skin" scenes (the
# rapids under seeds 1-5, the pile of 64, the burst pile and rapids, a
# head-on pair at 20 m/s, a ring thrown into the pile at 30 m/s, one
# dragged by hand through another at 5 m/s), each state checked every
# 0.1 s by the independent skin checker (tests/crossing_scenarios.c). Not
# part of make test: the whole list takes tens of minutes.
# CHECK_CONTACT_ARGS="--only pile,drag --seconds 2 --threads 2" narrows it.
.PHONY: check-contact
CHECK_CONTACT_ARGS ?=
$(B)/rel/crossing_scenarios: $(B)/rel/tests/crossing_scenarios.o $(call objs,rel,$(CROSSING_SRC)) \
                             $(call libs,rel,$(TEST_LAYERS_CORE))
	$(CC) $(BASEFLAGS) $(CFLAGS) $^ $(LDFLAGS) $(call pkglibs,$(TEST_LAYERS_CORE)) -o $@
check-contact: $(B)/rel/crossing_scenarios $(B)/rel/test_no_crossing
	-./$(B)/rel/test_no_crossing
	./$< $(CHECK_CONTACT_ARGS)

test-cli: dinghy | deps-test
	@bash tests/test_cli.sh ./dinghy

# the house rules: no files calling each other in a circle, layer includes
test-structure: | deps-test
	@echo "== tests/test_structure.py" && python3 tests/test_structure.py

# every citation of docs/physics.md names a section it has; every relative
# link and image of the Markdown files resolves; the generated table of
# config keys is what make docs writes now; every example whose output the
# docs show prints what they show (first a self-test: an altered hash fails)
test-docs: dinghy
	@echo "== tests/doc_examples.py" && python3 tests/doc_examples.py --self-test ./dinghy \
	  && python3 tests/doc_examples.py ./dinghy
	@echo "== tests/test_docs.sh" && bash tests/test_docs.sh
	@echo "== tests/test_links.sh" && bash tests/test_links.sh
	@echo "== tests/test_config_keys.sh" && bash tests/test_config_keys.sh ./dinghy

# make install and make uninstall into a staging directory (DESTDIR)
test-install: dinghy | deps-install
	@bash tests/test_install.sh "$(MAKE)"

# ---- AddressSanitizer + UndefinedBehaviorSanitizer build of the suites ----
# -O2, not -O1: the suites run faster, and ASan and UBSan check the same
SAN = -O2 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
$(B)/asan/%.o: %.c | deps-test
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(SAN) -c $< -o $@
$(B)/asan/test_%: $(B)/asan/tests/test_%.o $(B)/asan/tests/support.o $$(call test_objs,asan,test_$$*) \
                  $$(call libs,asan,$$(call test_layers,test_$$*))
	$(CC) $(BASEFLAGS) $(SAN) $^ $(TEST_LIBS) $(call pkglibs,$(call test_layers,test_$*)) -o $@

test-asan: | deps-test
	$(call run_jobs,$(ASAN_BINS),$(call longest_first,$(ASAN_RUN)))

# ---- ThreadSanitizer build: clang + libomp (gcc's libgomp reports false
# races under TSan) ----
TSAN_CC = clang
TSAN = -O1 -g -fsanitize=thread
$(B)/tsan/%.o: %.c | deps-test
	@mkdir -p $(dir $@)
	$(TSAN_CC) $(BASEFLAGS) $(TSAN) -c $< -o $@
$(B)/tsan/test_%: $(B)/tsan/tests/test_%.o $(B)/tsan/tests/support.o $$(call test_objs,tsan,test_$$*) \
                  $$(call libs,tsan,$$(call test_layers,test_$$*))
	$(TSAN_CC) $(BASEFLAGS) $(TSAN) $^ $(TEST_LIBS) $(call pkglibs,$(call test_layers,test_$*)) -o $@

test-tsan: | deps-test
	$(call run_jobs,$(TSAN_BINS),$(call longest_first,$(TSAN_RUN)))

# ---- render layer: its tests on Xvfb with Mesa's llvmpipe (no GPU or
# display needed); -noreset: Xvfb otherwise resets when its last client
# leaves, and the next test's connection can land in the middle of that ----
XVFB = xvfb-run -a -s '-screen 0 1280x720x24 -noreset'
# --wrap: the test counts the allocations the project's own code makes per frame.
WRAP_ALLOC = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
$(B)/rel/test_render: LDFLAGS += $(WRAP_ALLOC)
$(B)/asan/test_render: TEST_LIBS += $(WRAP_ALLOC)
# --wrap=calloc: test_waves makes the wave layer's allocations fail (it is
# never made standing still).
$(B)/rel/test_waves $(B)/asan/test_waves $(B)/tsan/test_waves: TEST_LIBS += -Wl,--wrap=calloc

# Three jobs, each on its own Xvfb (xvfb-run -a takes the next free display).
# Under ASan leak checking is off: the GL driver, unloaded at exit, leaves
# allocations that LeakSanitizer cannot attribute (checked: none are ours).
test-render: | deps-test
	$(call run_jobs,$(RENDER_BINS),$(call longest_first,$(RENDER_RUN)))
render-unit: $(B)/rel/test_render
	@$(XVFB) ./$<
render-cli: dinghy
	@$(XVFB) bash tests/test_render.sh ./dinghy
render-asan: $(B)/asan/test_render
	@ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 DINGHY_TEST_QUICK=1 $(XVFB) ./$<

# ---- audio layer: the unit suite, again under ThreadSanitizer (the sound
# has two threads), then the program on SDL's disk driver ----
test-audio: | deps-test
	$(call run_jobs,$(AUDIO_BINS),$(call longest_first,$(AUDIO_RUN)))
audio-cli: dinghy $(B)/rel/audio_probe
	@bash tests/test_audio.sh ./dinghy $(B)/rel/audio_probe
$(B)/rel/audio_probe: tests/audio_probe.c | deps-test
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) $< -lm -o $@

# ---- config layer: end-to-end tests and the fuzzer of the loader ----
# test-config: --print-config round trip, lookup order, messages, a headless
# hot-reload run, and the fuzz corpus replayed once under ASan+UBSan: the
# fuzz target with a plain main (tests/fuzz_replay.c) in the asan build
# the unit tests use, so that make test builds no clang fuzzer variant.
# fuzz: libFuzzer for FUZZ_SECONDS (default 60); fails on a crash, leak or
# timeout. New inputs go to build/fuzz/corpus; the seeds stay as they are.
FUZZ_SECONDS ?= 60
FUZZ_CC = clang
FUZZ = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
$(B)/fuzz/%.o: %.c | deps-test
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZ) -fsanitize=fuzzer-no-link -c $< -o $@
FUZZ_LAYERS = config shared spray core river
$(B)/fuzz/fuzz_config: $(B)/fuzz/tests/fuzz_config.o $(call libs,fuzz,$(FUZZ_LAYERS))
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZ) -fsanitize=fuzzer $^ $(call pkglibs,$(FUZZ_LAYERS)) -o $@

test-config: | deps-test
	$(call run_jobs,$(CONFIG_BINS),$(call longest_first,$(CONFIG_RUN)))
config-cli: dinghy
	@bash tests/test_config_cli.sh ./dinghy
config-reload: dinghy
	@bash tests/test_reload.sh ./dinghy

$(B)/asan/fuzz_replay: $(B)/asan/tests/fuzz_config.o $(B)/asan/tests/fuzz_replay.o \
                       $(call libs,asan,$(FUZZ_LAYERS))
	$(CC) $(BASEFLAGS) $(SAN) $^ $(call pkglibs,$(FUZZ_LAYERS)) -o $@
fuzz-corpus: $(B)/asan/fuzz_replay
	@echo "== fuzz_config over tests/fuzz_corpus (ASan+UBSan)"
	@ASAN_OPTIONS=detect_leaks=1 $(B)/asan/fuzz_replay tests/fuzz_corpus/* \
	  >$(B)/asan/corpus.log 2>&1 || { tail -n 40 $(B)/asan/corpus.log; exit 1; }
	@echo "fuzz corpus: $$(ls tests/fuzz_corpus | wc -l) inputs, no crash or leak"

# FUZZ_TIMEOUT: seconds one input may take. The seed bad-huge.ini (a
# 4096 x 4096 ring) checks a rest mesh of 33 million triangles twice: 10.7 s
# of CPU in this build on a 2-core AMD EPYC Zen 3, past the 10 s it had.
FUZZ_TIMEOUT ?= 30
fuzz: $(B)/fuzz/fuzz_config
	@mkdir -p $(B)/fuzz/corpus
	$(B)/fuzz/fuzz_config -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 \
	  -dict=tests/fuzz_config.dict -artifact_prefix=$(B)/fuzz/ -print_final_stats=1 \
	  $(B)/fuzz/corpus tests/fuzz_corpus

# ---- the benchmark suite: a table on screen, CSV/JSON/text and two plots
# under build/bench/ (untracked; gnuplot, from Debian's gnuplot-nox) ----
BENCH_OUT = $(B)/bench
# make bench-commit: copies the last make bench into bench/results/<cpu>/, to commit on purpose
BENCH_CPU = $(shell sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo | head -n 1 | tr -cs 'A-Za-z0-9._-' '-' | sed 's/-*$$//')
bench: dinghy | deps-bench
	@mkdir -p $(BENCH_OUT)
	./dinghy --bench --csv $(BENCH_OUT)/latest.csv --json $(BENCH_OUT)/latest.json | tee $(BENCH_OUT)/latest.txt
	gnuplot -e "csv='$(BENCH_OUT)/latest.csv'; outdir='$(BENCH_OUT)'" bench/plot.gp
	@echo "bench: wrote $(BENCH_OUT)/latest.{txt,csv,json}, speedup.png, ns_per_vertex_step.png"
	@echo "bench: to keep them, make bench-commit (copies to bench/results/$(BENCH_CPU)/)"

bench-commit:
	@test -f $(BENCH_OUT)/latest.csv || { echo "bench-commit: run make bench first"; exit 1; }
	@mkdir -p bench/results/$(BENCH_CPU)
	cp $(BENCH_OUT)/latest.txt $(BENCH_OUT)/latest.csv $(BENCH_OUT)/latest.json $(BENCH_OUT)/*.png bench/results/$(BENCH_CPU)/
	@echo "bench-commit: bench/results/$(BENCH_CPU)/ ready to git add"

-include $(shell find $(B) -name '*.d' 2>/dev/null)
