# dinghy: make, make test, make run, make clean.
# Honours CC, CFLAGS, LDFLAGS, PREFIX. DINGHY_NO_DEPS=1 skips the package check.

CC      ?= cc
CFLAGS  ?= -O3 -march=native -g
PREFIX  ?= /usr/local
# Always on: the language, warnings, and what keeps the tick deterministic:
# no FMA contraction and no fast-math (they change bits); -fno-math-errno
# only lets sqrtf vectorise and changes no result.
BASEFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wpedantic \
            -ffp-contract=off -fno-math-errno -fopenmp -MMD -MP
PKGS      = inih glfw3 glew stb
LIBS      = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm
TEST_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)

PHYSICS = physics/params.c physics/shape.c physics/springs.c physics/broadphase.c physics/events.c physics/scene.c \
          physics/tick.c physics/sim.c physics/checkpoint.c physics/reference.c
CONFIG  = config/diag.c config/params_table.c config/config.c config/cli.c
APP     = app/report.c app/headless.c app/bench.c
CORE    = $(PHYSICS) $(CONFIG) $(APP)
# The renderer and what drives it: the on-screen demo and the offscreen captures.
RENDER  = render/mat4.c render/camera.c render/window.c render/shader.c render/palette.c \
          render/sky.c render/riverbed.c render/water.c render/dinghy_mesh.c render/hud.c \
          render/gpu_mesh.c render/offscreen.c render/png.c render/input.c render/render.c
GFX     = $(RENDER) app/frame_clock.c app/video.c app/capture.c app/demo.c
TESTS   = tests/test_physics.c tests/test_parallel.c tests/test_config.c

# ---- configuration: file lookup, hot reload (issue 3; targets at the end) ----
CONFIG += config/ini.c config/find.c config/build.c config/watch.c
APP    += app/reload.c app/headless_watch.c
TESTS  += tests/test_watch.c

B = build
objs = $(patsubst %.c,$(B)/$(1)/%.o,$(2))

.SECONDARY:
BENCH_OUT = $(B)/bench
# make bench-commit: copies the last make bench into bench/results/<cpu>/, to commit on purpose
BENCH_CPU = $(shell sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo | head -n 1 | tr -cs 'A-Za-z0-9._-' '-' | sed 's/-*$$//')

.PHONY: all deps bench bench-commit test test-unit test-asan test-tsan test-cli test-render run clean install
all: deps dinghy

deps:
ifndef DINGHY_NO_DEPS
	@scripts/deps.sh
endif

# ---- sound (SDL2_mixer): audio/, the headless --audio run, its tests ----
AUDIO_LIB = audio/synth.c audio/plan.c audio/scene_sound.c audio/audio.c
AUDIO     = $(AUDIO_LIB) app/audio_run.c
CORE     += $(AUDIO)
PKGS     += sdl2 SDL2_mixer
TESTS    += tests/test_audio.c
.PHONY: test-audio
test: test-audio
# the unit suite, again under ThreadSanitizer (the sound has two threads), then the program on SDL's disk driver
test-audio: $(B)/rel/test_audio $(B)/tsan/test_audio dinghy $(B)/rel/audio_probe
	@echo "== $(B)/rel/test_audio" && ./$(B)/rel/test_audio
	@echo "== $(B)/tsan/test_audio (ThreadSanitizer)" && \
	  TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=1" ./$(B)/tsan/test_audio
	@bash tests/test_audio.sh ./dinghy $(B)/rel/audio_probe
$(B)/tsan/test_audio: $(B)/tsan/tests/test_audio.o $(B)/tsan/tests/support.o $(call objs,tsan,$(PHYSICS) $(AUDIO_LIB))
	$(TSAN_CC) $(BASEFLAGS) $(TSAN) $^ $(TEST_LIBS) $(LIBS) -o $@
$(B)/rel/audio_probe: tests/audio_probe.c
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) $< -lm -o $@

# ---- release build ----
$(B)/rel/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) -c $< -o $@

# The benchmark prints the flags it was built with.
BUILD_FLAGS := $(CFLAGS)
$(B)/rel/app/bench.o: CFLAGS += -DDINGHY_CFLAGS='"$(BUILD_FLAGS)"'

dinghy: $(call objs,rel,dinghy.c $(CORE) $(GFX))
	$(CC) $(BASEFLAGS) $(CFLAGS) $^ $(LDFLAGS) $(LIBS) -o $@

$(B)/rel/test_%: $(B)/rel/tests/test_%.o $(B)/rel/tests/support.o $(call objs,rel,$(CORE))
	$(CC) $(BASEFLAGS) $(CFLAGS) $^ $(LDFLAGS) $(TEST_LIBS) $(LIBS) -o $@

# ---- AddressSanitizer + UndefinedBehaviorSanitizer build of the suite ----
SAN = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
$(B)/asan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(SAN) -c $< -o $@
$(B)/asan/test_%: $(B)/asan/tests/test_%.o $(B)/asan/tests/support.o $(call objs,asan,$(CORE))
	$(CC) $(BASEFLAGS) $(SAN) $^ $(TEST_LIBS) $(LIBS) -o $@

# ---- ThreadSanitizer build of the tick: clang + libomp (gcc's libgomp
# reports false races under TSan) ----
TSAN_CC = clang
TSAN = -O1 -g -fsanitize=thread
$(B)/tsan/%.o: %.c
	@mkdir -p $(dir $@)
	$(TSAN_CC) $(BASEFLAGS) $(TSAN) -c $< -o $@
$(B)/tsan/test_parallel: $(B)/tsan/tests/test_parallel.o $(B)/tsan/tests/support.o $(call objs,tsan,$(PHYSICS))
	$(TSAN_CC) $(BASEFLAGS) $(TSAN) $^ $(TEST_LIBS) -lm -o $@

UNIT = $(patsubst tests/%.c,%,$(TESTS))

test: deps test-unit test-cli test-render test-asan test-tsan test-config
	@echo "make test: all suites passed"

test-unit: $(addprefix $(B)/rel/,$(UNIT))
	@for t in $^; do echo "== $$t"; ./$$t || exit 1; done

test-cli: dinghy
	@bash tests/test_cli.sh ./dinghy

test-asan: $(addprefix $(B)/asan/,$(UNIT))
	@for t in $^; do echo "== $$t (ASan+UBSan)"; \
	  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 DINGHY_TEST_QUICK=1 ./$$t || exit 1; done

test-tsan: $(B)/tsan/test_parallel
	@echo "== $< (ThreadSanitizer)"
	@TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=1" DINGHY_TEST_QUICK=1 ./$<

# The benchmark suite: a table on screen, CSV/JSON/text and two plots under
# build/bench/ (untracked; gnuplot, from Debian's gnuplot-nox).
bench: all
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

# ---- the renderer's tests, on Xvfb with Mesa's llvmpipe (no GPU or display needed);
# -noreset: Xvfb otherwise resets when its last client leaves, and the next
# test's connection can land in the middle of that reset ----
XVFB = xvfb-run -a -s '-screen 0 1280x720x24 -noreset'
# --wrap: the test counts the allocations the project's own code makes per frame.
WRAP_ALLOC = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
$(B)/rel/test_render: $(B)/rel/tests/test_render.o $(B)/rel/tests/support.o $(call objs,rel,$(CORE) $(GFX))
	$(CC) $(BASEFLAGS) $(CFLAGS) $^ $(LDFLAGS) $(WRAP_ALLOC) $(TEST_LIBS) $(LIBS) -o $@
$(B)/asan/test_render: $(B)/asan/tests/test_render.o $(B)/asan/tests/support.o $(call objs,asan,$(CORE) $(GFX))
	$(CC) $(BASEFLAGS) $(SAN) $^ $(WRAP_ALLOC) $(TEST_LIBS) $(LIBS) -o $@

# Under ASan leak checking is off: the GL driver, unloaded at exit, leaves
# allocations that LeakSanitizer cannot attribute (checked: none are ours).
test-render: dinghy $(B)/rel/test_render $(B)/asan/test_render
	@echo "== test_render (Xvfb, Mesa llvmpipe)"
	@$(XVFB) ./$(B)/rel/test_render
	@$(XVFB) bash tests/test_render.sh ./dinghy
	@echo "== test_render (ASan+UBSan, Xvfb)"
	@ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 $(XVFB) ./$(B)/asan/test_render

run: all
	@./dinghy

install: dinghy
	install -D -m 755 dinghy $(DESTDIR)$(PREFIX)/bin/dinghy

clean:
	rm -rf $(B) dinghy

# ---- configuration: end-to-end tests and the fuzzer of the config loader ----
# test-config: --print-config round trip, lookup order, messages, a headless
# hot-reload run, and the fuzz corpus replayed once under ASan+UBSan.
# fuzz: libFuzzer for FUZZ_SECONDS (default 60); fails on a crash, leak or
# timeout. New inputs go to build/fuzz/corpus; the seeds stay as they are.
FUZZ_SECONDS ?= 60
FUZZ_CC = clang
FUZZ = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_SRC = $(CONFIG) $(PHYSICS)
.PHONY: test-config fuzz fuzz-corpus
test-config: dinghy fuzz-corpus
	@bash tests/test_config_cli.sh ./dinghy
	@bash tests/test_reload.sh ./dinghy

$(B)/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZ) -fsanitize=fuzzer-no-link -c $< -o $@
$(B)/fuzz/fuzz_config: $(B)/fuzz/tests/fuzz_config.o $(call objs,fuzz,$(FUZZ_SRC))
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZ) -fsanitize=fuzzer $^ $(LIBS) -o $@

fuzz-corpus: deps $(B)/fuzz/fuzz_config
	@echo "== fuzz_config over tests/fuzz_corpus (ASan+UBSan)"
	@$(B)/fuzz/fuzz_config tests/fuzz_corpus/* 2>$(B)/fuzz/corpus.log \
	  || { tail -n 40 $(B)/fuzz/corpus.log; exit 1; }
	@echo "fuzz corpus: $$(ls tests/fuzz_corpus | wc -l) inputs, no crash or leak"

fuzz: deps $(B)/fuzz/fuzz_config
	@mkdir -p $(B)/fuzz/corpus
	$(B)/fuzz/fuzz_config -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	  -dict=tests/fuzz_config.dict -artifact_prefix=$(B)/fuzz/ -print_final_stats=1 \
	  $(B)/fuzz/corpus tests/fuzz_corpus

-include $(shell find $(B) -name '*.d' 2>/dev/null)
