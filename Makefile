# pala: one hand-written Makefile.  `make` builds ./pala, `make run` runs the default
# example, `make test` builds and runs every test (`make test T=name`: the tests whose
# name contains `name`).  Without make:
#   mkdir -p build/gen && sh src/cli/view/embed.sh > build/gen/view_page.h &&
#   cc -O2 -Iinclude -Isrc/lib -Ibuild/gen src/lib/*.c src/cli/*.c -o pala -lm -lpthread
# also works (the first line embeds the viewer's page, src/cli/view/, as a C header).
# src/lib/ is the library (libpala.a: the physics, the scene reader), src/cli/ the command
# line (docs/design.md).
CC      ?= cc
# -march=native when the compiler takes it (vector instructions of this machine: ~1.3x on
# the benchmark beds); results are the same bits either way (no contraction, see below).
# For a binary that runs on any machine of the architecture: make OPT=-O3
NATIVE  := $(shell $(CC) -march=native -x c -c /dev/null -o /dev/null >/dev/null 2>&1 && echo -march=native)
OPT     ?= -O3 $(NATIVE)
# -ffp-contract=off: no fused multiply-add contraction, so results do not depend on
# which instructions the compiler picks (bit-identical output across builds).
# -fno-math-errno: sqrt becomes one instruction (pala never reads errno); results are
# unchanged.  -fno-trapping-math: selects such as `wn > 0 ? delta : 1` may be computed
# branch-free in vector loops (pala never reads floating-point exception flags); every
# operation still rounds as IEEE 754 says, so results are unchanged.
CFLAGS  ?= $(OPT) -g
WARN    := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wdouble-promotion \
           -Wmissing-prototypes -Wstrict-prototypes -Wundef -Wwrite-strings -Werror
COMMON  = $(WARN) -ffp-contract=off -fno-math-errno -fno-trapping-math -D_POSIX_C_SOURCE=200809L -Iinclude
ALLFLAGS = $(CFLAGS) $(COMMON) -MMD -MP
LDLIBS  := -lm -lpthread

LIBSRC  := $(wildcard src/lib/*.c)
LIBOBJ  := $(LIBSRC:src/lib/%.c=build/lib/%.o)
CLISRC  := $(wildcard src/cli/*.c)
CLIOBJ  := $(CLISRC:src/cli/%.c=build/cli/%.o)
# the page of `pala view`: plain CSS, HTML and JavaScript, embedded into build/cli/view.o
# through build/gen/view_page.h (src/cli/view/embed.sh)
VIEWSRC := $(wildcard src/cli/view/*.css src/cli/view/*.html src/cli/view/*.js)
TESTSRC := $(wildcard tests/*.c)
TESTOBJ := $(TESTSRC:tests/%.c=build/tests/%.o)

.PHONY: all run test examples sanitize bench bench-busy clean fuzz portable-check FORCE
all: pala

# The flags of the last build: when they change (OPT=..., make sanitize), everything is
# rebuilt, so ./pala never keeps objects or libraries of other flags.
build/flags: FORCE | build/.dirs
	@printf '%s\n' '$(ALLFLAGS) $(LDLIBS)' | cmp -s - $@ || printf '%s\n' '$(ALLFLAGS) $(LDLIBS)' > $@

# the library sees only its own headers; the command line sees the library's too
build/lib/%.o: src/lib/%.c build/flags | build/.dirs
	@echo "CC $<"; $(CC) $(ALLFLAGS) -Isrc/lib -c $< -o $@
# the contact kernel with gcc's report of its loops, vectorised or not
# (build/lib/contact.vec): tests/test_vectorise.c checks that every instantiation of the
# kernel's loop vectorises, which no output shows.  No report with a compiler without
# -fopt-info.
VECINFO := $(shell $(CC) -fopt-info-vec-optimized-missed=/dev/null -x c -c /dev/null -o /dev/null >/dev/null 2>&1 && echo -fopt-info-vec-optimized-missed=build/lib/contact.vec)
build/lib/contact.o: src/lib/contact.c build/flags | build/.dirs
	@echo "CC $<"; rm -f build/lib/contact.vec; $(CC) $(ALLFLAGS) $(VECINFO) -Isrc/lib -c $< -o $@
build/cli/%.o: src/cli/%.c build/flags | build/.dirs
	@echo "CC $<"; $(CC) $(ALLFLAGS) -Isrc/lib -Isrc/cli -Ibuild/gen -c $< -o $@
build/tests/%.o: tests/%.c build/flags | build/.dirs
	@echo "CC $<"; $(CC) $(ALLFLAGS) -Isrc/lib -Isrc/cli -c $< -o $@
build/.dirs:
	@mkdir -p build/tests build/lib build/cli && touch $@

# view.c includes the generated header: it is made before view.o is first compiled (later
# the dependency file lists it too); a changed .js, .css or .html file remakes it
build/cli/view.o: build/gen/view_page.h
build/gen/view_page.h: src/cli/view/embed.sh $(VIEWSRC)
	@echo "GEN $@"; mkdir -p build/gen && sh src/cli/view/embed.sh > $@.tmp && mv $@.tmp $@

build/libpala.a: $(LIBOBJ)
	@rm -f $@ && ar rcs $@ $^

pala: $(CLIOBJ) build/libpala.a
	@echo "LD $@"; $(CC) $(ALLFLAGS) -o $@ $^ $(LDLIBS)

build/run_tests: $(TESTOBJ) $(filter-out build/cli/main.o,$(CLIOBJ)) build/libpala.a
	@echo "LD $@"; $(CC) $(ALLFLAGS) -o $@ $^ $(LDLIBS)

run: pala
	./pala run examples/paper-ten-grains.txt -o build/run/paper-ten-grains --force

# The library's files of four-double vectors (src/lib/vec4.h: gcc's and clang's vector
# extensions, whose spelling and ABI notes differ between compilers and with or without
# -march) compiled with PORTCC and PORTOPT at once, objects discarded: tests/test_portable.c runs it
# for the portable build (make OPT=-O3) and, where clang is installed, with clang.
PORTCC  ?= $(CC)
PORTOPT ?= -O3
portable-check: FORCE
	@pids=; for f in $$(grep -l '"vec4.h"' src/lib/*.c); do $(PORTCC) $(PORTOPT) $(COMMON) -Isrc/lib -c $$f -o /dev/null & pids="$$pids $$!"; done; \
	rc=0; for p in $$pids; do wait $$p || rc=1; done; exit $$rc

# the embedding example of docs/embedding.md, built as a user would (the public header only)
build/embed: docs/examples/embed.c build/libpala.a
	@echo "LD $@"; $(CC) $(ALLFLAGS) -o $@ $^ $(LDLIBS)

# the fuzz targets (below), whose replays on their corpus make test runs: defined before
# the rule, as make expands a rule's prerequisites where it reads them
FUZZTARGETS := control lammps checkpoint traj tsv start startck
test: pala build/run_tests build/embed $(FUZZTARGETS:%=build/fuzz/replay-%)
	./build/run_tests $(T)

examples: pala
	for f in examples/*.txt; do ./pala run $$f -o build/ex/$$(basename $$f .txt) --force || exit 1; done

# the tests under ASan and UBSan, then ./pala rebuilt with the normal flags (it links
# libc and libm only).  With clang (Debian: apt-get install clang) UBSan also checks every
# cast from a double to an integer (-fsanitize=float-cast-overflow: a value out of the
# integer's range, or NaN), which gcc's `undefined` does not; any UBSan report then ends
# the process (-fno-sanitize-recover), so the test that ran it fails.  Without clang the
# tests run under gcc's ASan and UBSan as before, and `make sanitize` says the check is off.
SANCC   := $(shell command -v clang >/dev/null 2>&1 && echo clang)
SANFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined$(if $(SANCC),$(comma)float-cast-overflow -fno-sanitize-recover=undefined$(comma)float-cast-overflow)
comma   := ,
sanitize:
	@[ -n "$(SANCC)" ] || echo "make sanitize: no clang, so no float-cast-overflow check (apt-get install clang)"
	$(MAKE) test $(if $(SANCC),CC=$(SANCC)) OPT=-O1 CFLAGS="$(SANFLAGS)"; st=$$?; $(MAKE) pala && exit $$st

build/pala_bench: bench/bench.c build/libpala.a
	@echo "LD $@"; $(CC) $(ALLFLAGS) -o $@ $^ $(LDLIBS)

# the interactions between centres alone (bench/centre.sh); it calls the library's
# internals, so it sees src/lib
build/centre_bench: bench/centre.c build/libpala.a
	@echo "LD $@"; $(CC) $(ALLFLAGS) -Isrc/lib -o $@ $^ $(LDLIBS)

# one sphere's query of a mesh of 10^5 triangles against a plane's contact (bench/mesh.c)
build/mesh_bench: bench/mesh.c build/libpala.a
	@echo "LD $@"; $(CC) $(ALLFLAGS) -Isrc/lib -o $@ $^ $(LDLIBS)

# a trajectory frame against a step (bench/trajectory_write.sh); it calls the writers
build/traj_bench: bench/trajwrite.c $(filter-out build/cli/main.o,$(CLIOBJ)) build/libpala.a
	@echo "LD $@"; $(CC) $(ALLFLAGS) -Isrc/lib -Isrc/cli -o $@ $^ $(LDLIBS)

# the round trip of a cache line between two CPUs (bench/cpus.sh)
build/pingpong: bench/pingpong.c
	@mkdir -p build; echo "LD $@"; $(CC) $(CFLAGS) -std=c11 -Wall -Wextra -Werror -o $@ $< -lpthread

# pala against LAMMPS on the shared beds (docs/performance.md): `make bench` on a quiet
# machine (bench/run.sh), `make bench-busy` with every core busy, one copy of each per
# CPU as a sweep runs (bench/busy.sh)
bench: pala build/pala_bench
	sh bench/run.sh

bench-busy: pala build/pala_bench
	sh bench/busy.sh

# fuzzing (docs/fuzzing.md): the targets of tests/fuzz/fuzz.c built with AFL++'s compiler
# under ASan and UBSan, then each fuzzed for FUZZ_TIME seconds on one core at nice 19.
# build/fuzz/replay-*: the same targets with the normal compiler, which `make test` runs on
# the seed corpus (no AFL needed).  The targets of the command line's readers (checkpoint,
# traj, tsv) link the command line but main.c.
FUZZ_TIME ?= 1800
FUZZCC    ?= afl-clang-fast
FUZZFLAGS := -O1 -g -std=gnu11 -ffp-contract=off -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc/lib -Isrc/cli -Ibuild/gen
FUZZCLI   := $(filter-out src/cli/main.c,$(CLISRC))
# the library and the command line instrumented once (build/fuzz/obj/), linked into each target
FUZZOBJ   := $(LIBSRC:src/lib/%.c=build/fuzz/obj/lib/%.o) $(FUZZCLI:src/cli/%.c=build/fuzz/obj/cli/%.o)
FUZZSAN   := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
.SECONDARY: $(FUZZOBJ)
build/fuzz/obj/%.o: src/%.c build/gen/view_page.h
	@mkdir -p $(dir $@)
	@echo "AFL $<"; AFL_QUIET=1 AFL_USE_ASAN=1 AFL_USE_UBSAN=1 $(FUZZCC) $(FUZZFLAGS) $(FUZZSAN) -MMD -MP -c $< -o $@
build/fuzz/afl-%: tests/fuzz/fuzz.c $(FUZZOBJ) | build/.dirs
	@echo "AFL $@"; AFL_QUIET=1 AFL_USE_ASAN=1 AFL_USE_UBSAN=1 $(FUZZCC) $(FUZZFLAGS) $(FUZZSAN) \
	    -DFUZZ_$(shell echo $* | tr a-z A-Z) tests/fuzz/fuzz.c $(FUZZOBJ) -o $@ $(LDLIBS)
build/fuzz/replay-%: tests/fuzz/fuzz.c $(filter-out build/cli/main.o,$(CLIOBJ)) build/libpala.a | build/.dirs
	@mkdir -p build/fuzz
	@echo "LD $@"; $(CC) $(ALLFLAGS) -Isrc/lib -Isrc/cli -DFUZZ_$(shell echo $* | tr a-z A-Z) -o $@ $^ $(LDLIBS)
fuzz: $(FUZZTARGETS:%=build/fuzz/afl-%)
	sh tests/fuzz/run.sh $(FUZZ_TIME) $(FUZZTARGETS)

clean:
	rm -rf build pala

-include $(LIBOBJ:.o=.d) $(CLIOBJ:.o=.d) $(TESTOBJ:.o=.d) $(FUZZOBJ:.o=.d)
