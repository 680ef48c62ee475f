# RockLake build. Make (not CMake): src/ holds one folder per layer (src/LAYERS,
# each folder's README), one file per concern; one Rust staticlib built by
# cargo; a handful of test/fuzz/bench binaries. See docs/architecture.md.
#
#   make            build build/rocklake (release C + Rust)
#   make check      everything CI runs: test, package-test, asan-test, fuzz (bounded)
#   make test       build and run every test (layer map, unit, property, integration, S3)
#   make layers     check that every src/ include follows the layer map (src/LAYERS)
#                   and that no SQLSTATE is spelled outside src/base/error.h
#   make circles    check that the built objects call each other in no circle
#                   src/LAYERS [circles] does not accept
#   make asan-test  the same tests built with AddressSanitizer + UBSan
#   make fuzz       build libFuzzer targets (clang) and run each for FUZZ_SECONDS,
#                   then the differential SQL fuzzer (tests/diffuzz) as long
#   make bench      RockLake vs PostgreSQL 15 benchmark (not a test; BENCH_FLAGS=--quick);
#                   its real-DuckDB half also measures Quack and the DuckDB-file catalog
#   make bench-storage  storage-level benchmark of the reference catalog
#   make serve      run `rocklake serve` on ./rocklake-data, 127.0.0.1:5433
#   make demo       create a small catalog in ./rocklake-data/demo and show it
#   make install    install the binary, man page, systemd unit (ExecStart set to
#                   this PREFIX's binary), sysusers file and, if absent,
#                   /etc/rocklake/rocklake.env: PREFIX=/usr/local DESTDIR= (also
#                   BINDIR, MANDIR, UNITDIR, SYSUSERSDIR, SYSCONFDIR)
#   make uninstall  remove what `make install` installed, except rocklake.env
#   make deb        build the Debian 12 package build/rocklake_VERSION_ARCH.deb
#                   (scripts/build-deb.sh; DEB_VERSION= overrides the version)
#   make package-test  as root: build the package, lintian it, install it, serve
#                   with its unit's command as its user, psql and DuckDB against
#                   it, remove and purge it (tests/package/test_deb.sh; in `check`)

CC      ?= cc
CSTD    := -std=c17 -D_GNU_SOURCE
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
OPT     ?= -O2 -g
# assert(): on in every build, release included (nothing here defines NDEBUG).
# The invariants src/ asserts (each file's header says which) are O(1)
# checks, cheap enough to keep in release; EXTRA_CFLAGS=-DNDEBUG compiles
# them out, and tests/test_invariants.c then skips its death tests.
BUILD   ?= build
SANFLAGS ?=
CFLAGS_ALL = $(CSTD) $(WARN) $(OPT) $(SANFLAGS) -Isrc -I/usr/include/postgresql $(EXTRA_CFLAGS)

RUST_LIB := rust/target/release/librocklake_kv.a
LIBS     := $(RUST_LIB) -lpg_query -lprotobuf-c -lpcre2-8 -lgmp -lssl -lcrypto -lz -lpthread -ldl -lm

# Library sources: every src/FOLDER/*.c except the CLI entry point. Each
# object depends on the headers it really includes: the compiler writes them
# (-MMD -MP) into a .d file beside the object, which make reads back.
LIB_SRC  := $(filter-out src/cli/main.c,$(wildcard src/*/*.c))
LIB_OBJ  := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(LIB_SRC))
DEPFLAGS  = -MMD -MP -MF $(basename $@).d -MT $@
TESTS    := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
TEST_HELPERS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/helper_*.c))

.PHONY: all check test layers circles asan-test fuzz bench bench-replay bench-duckdb bench-objstore bench-storage demo clean rust \
        install uninstall deb package-test
all: $(BUILD)/rocklake $(BUILD)/lakedriver

rust: $(RUST_LIB)
$(RUST_LIB): rust/Cargo.toml rust/Cargo.lock $(wildcard rust/src/*.rs)
	cd rust && cargo build --release --locked

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(DEPFLAGS) -c $< -o $@

# Made anew each time: `ar r` alone would keep the member of a source file
# that was renamed or removed.
$(BUILD)/librocklake.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/rocklake: src/cli/main.c $(BUILD)/librocklake.a $(RUST_LIB)
	@mkdir -p $(BUILD)/obj
	$(CC) $(CFLAGS_ALL) -MMD -MP -MF $(BUILD)/obj/rocklake.d -MT $@ $< $(BUILD)/librocklake.a $(LIBS) -lpq -lsqlite3 -o $@

$(BUILD)/tests/%: tests/%.c $(BUILD)/librocklake.a $(RUST_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(DEPFLAGS) -Itests -I/usr/include/postgresql $< $(BUILD)/librocklake.a $(LIBS) -lpq -lsqlite3 -o $@

check:
	$(MAKE) test
	$(MAKE) package-test
	$(MAKE) asan-test
	$(MAKE) fuzz
	@echo "check: all suites passed"

test: $(BUILD)/rocklake $(BUILD)/lakedriver $(TESTS) $(TEST_HELPERS)
	BUILD=$(BUILD) tests/run.sh

# The layer map of src/ (src/LAYERS, docs/architecture.md): also the first
# suite of `make test` (tests/test_layers.py), with the SQLSTATE spelling check.
layers:
	python3 scripts/check-layers.py
	python3 scripts/check-sqlstates.py

# Circles of calls between files, read from the built objects' symbols (the
# include rule cannot see them through shared headers); also part of the
# layer-map suite of `make test`.
circles: $(BUILD)/librocklake.a
	python3 scripts/check-circles.py --build $(BUILD)

asan-test:
	$(MAKE) BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
	  SANFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined" test

fuzz: $(RUST_LIB) $(BUILD)/rocklake
	BUILD=build-fuzz ROCKLAKE_BIN=$(CURDIR)/$(BUILD)/rocklake fuzz/run.sh

# RockLake vs PostgreSQL 15: the replay over the wire (bench/run.py), then
# real DuckDB on four catalogs, RockLake, PostgreSQL 15, Quack (DuckLake's own
# catalog server) and the DuckDB-file catalog as the floor (bench/duckdb_bench.py).
# Each prints its tables and writes its section of docs/benchmarks.md and
# bench/plots/*.png. Not part of `check`. BENCH_FLAGS=--quick: small sizes,
# output under build/bench/.
bench: $(BUILD)/rocklake $(BUILD)/lakedriver
	python3 bench/run.py $(BENCH_FLAGS)
	BUILD=$(BUILD) python3 bench/duckdb_bench.py $(filter --quick,$(BENCH_FLAGS))
	BUILD=$(BUILD) python3 bench/objstore.py $(filter --quick,$(BENCH_FLAGS))

# The three parts of `make bench`: the replay (server-only view), real
# DuckDB 1.5.5 against RockLake, PostgreSQL 15, Quack and the DuckDB-file
# catalog, and RockLake on s3:// behind a latency proxy (object storage).
bench-replay: $(BUILD)/rocklake $(BUILD)/lakedriver
	python3 bench/run.py $(BENCH_FLAGS)

bench-duckdb: $(BUILD)/rocklake
	BUILD=$(BUILD) python3 bench/duckdb_bench.py $(filter --quick,$(BENCH_FLAGS))

bench-objstore: $(BUILD)/rocklake
	BUILD=$(BUILD) python3 bench/objstore.py $(filter --quick,$(BENCH_FLAGS))

# The load driver of `make bench` and bench/probe.py (libpq, one thread per client).
$(BUILD)/lakedriver: bench/lakedriver.c
	@mkdir -p $(BUILD)/obj
	$(CC) $(CFLAGS_ALL) -MMD -MP -MF $(BUILD)/obj/lakedriver.d -MT $@ -I/usr/include/postgresql $< -lpq -lpthread -lm -o $@

bench-storage: $(BUILD)/bench_storage
	$(BUILD)/bench_storage $(BENCH_ARGS)

$(BUILD)/bench_storage: bench/bench_storage.c $(BUILD)/librocklake.a $(RUST_LIB)
	$(CC) $(CFLAGS_ALL) -MMD -MP -MF $(BUILD)/obj/bench_storage.d -MT $@ $< $(BUILD)/librocklake.a $(LIBS) -o $@

serve: $(BUILD)/rocklake
	$(BUILD)/rocklake serve

demo: $(BUILD)/rocklake
	$(BUILD)/rocklake demo ./rocklake-data/demo
	$(BUILD)/rocklake stats ./rocklake-data/demo
	$(BUILD)/rocklake inspect ./rocklake-data/demo --limit 40

# Installation layout. UNITDIR and SYSUSERSDIR under PREFIX/lib are on
# systemd's search paths for PREFIX=/usr/local and /usr; for another PREFIX
# set them (e.g. UNITDIR=/etc/systemd/system SYSUSERSDIR=/etc/sysusers.d).
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
UNITDIR     ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
SYSCONFDIR  ?= /etc
DESTDIR     ?=

# contrib/rocklake.service is the one copy of the unit: it says
# /usr/local/bin/rocklake, and is installed with ExecStart naming BINDIR's
# binary instead (the grep fails the install if that line ever changes
# shape). rocklake.env is the operator's file: never overwritten.
install: $(BUILD)/rocklake
	install -D -m 0755 $(BUILD)/rocklake $(DESTDIR)$(BINDIR)/rocklake
	install -D -m 0644 contrib/rocklake.1 $(DESTDIR)$(MANDIR)/man1/rocklake.1
	install -D -m 0644 contrib/rocklake.sysusers $(DESTDIR)$(SYSUSERSDIR)/rocklake.conf
	@mkdir -p $(DESTDIR)$(UNITDIR)
	sed 's|^ExecStart=/usr/local/bin/rocklake |ExecStart=$(BINDIR)/rocklake |' \
	    contrib/rocklake.service > $(DESTDIR)$(UNITDIR)/rocklake.service
	grep -q '^ExecStart=$(BINDIR)/rocklake serve' $(DESTDIR)$(UNITDIR)/rocklake.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/rocklake.service
	[ -e $(DESTDIR)$(SYSCONFDIR)/rocklake/rocklake.env ] || \
	    install -D -m 0644 contrib/rocklake.env $(DESTDIR)$(SYSCONFDIR)/rocklake/rocklake.env

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/rocklake $(DESTDIR)$(MANDIR)/man1/rocklake.1 \
	    $(DESTDIR)$(SYSUSERSDIR)/rocklake.conf $(DESTDIR)$(UNITDIR)/rocklake.service

# The Debian package: `make install` into a staging folder (PREFIX=/usr, the
# unit in Debian 12's /lib/systemd/system), then scripts/build-deb.sh adds
# what Debian wants (stripped binary, gzipped man page, copyright, changelog,
# maintainer scripts, computed Depends) and builds it with dpkg-deb.
deb: $(BUILD)/rocklake
	BUILD=$(BUILD) DEB_VERSION=$(DEB_VERSION) scripts/build-deb.sh

# Needs root (it installs the package); leaves the machine as it found it.
package-test: $(BUILD)/rocklake
	BUILD=$(BUILD) tests/package/test_deb.sh

# The generated header dependencies (-MMD -MP) of every object and binary
# (files only: build/deb holds directories such as usr/lib/sysusers.d).
-include $(shell find $(BUILD) -name '*.d' -type f 2>/dev/null)

clean:
	rm -rf build build-asan build-fuzz
