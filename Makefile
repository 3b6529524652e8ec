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

PHYSICS = physics/params.c physics/shape.c physics/broadphase.c physics/events.c physics/scene.c \
          physics/tick.c physics/sim.c physics/reference.c
CONFIG  = config/diag.c config/params_table.c config/config.c config/cli.c
APP     = app/report.c app/headless.c
CORE    = $(PHYSICS) $(CONFIG) $(APP)
# The renderer and what drives it: the on-screen demo and the offscreen captures.
RENDER  = render/mat4.c render/camera.c render/window.c render/shader.c render/palette.c \
          render/sky.c render/riverbed.c render/water.c render/dinghy_mesh.c render/hud.c \
          render/gpu_mesh.c render/offscreen.c render/png.c render/input.c render/render.c
GFX     = $(RENDER) app/frame_clock.c app/video.c app/capture.c app/demo.c
TESTS   = tests/test_physics.c tests/test_parallel.c tests/test_config.c

B = build
objs = $(patsubst %.c,$(B)/$(1)/%.o,$(2))

.SECONDARY:
.PHONY: all deps test test-unit test-asan test-tsan test-cli test-render run clean install
all: deps dinghy

deps:
ifndef DINGHY_NO_DEPS
	@scripts/deps.sh
endif

# ---- release build ----
$(B)/rel/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) -c $< -o $@

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

test: deps test-unit test-cli test-render test-asan test-tsan
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

-include $(shell find $(B) -name '*.d' 2>/dev/null)
