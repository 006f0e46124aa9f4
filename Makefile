# hangdx - plain GNU Makefile.  `make` builds libhangdx.a, libhangdx.so and
# hangdx; `make test` runs every test and ends with "N passed, N failed, N skipped, N todo";
# `make demo` installs missing packages (as root), builds and runs the
# reference incident.  Sources are found by directory: src/<stage>/*.c go
# into the library, cli/*.c into the binary, tests/unit/test_*.c become one
# test program each.

CC      ?= cc
PREFIX  ?= /usr/local
PKGS    := yaml-0.1 libarchive zlib libzstd
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lyaml -larchive -lz -lzstd)

WARN    := -Wall -Wextra -Werror -Wshadow -Wconversion -Wstrict-prototypes \
           -Wmissing-prototypes -Wno-sign-conversion
OPT     ?= -O2 -g
CFLAGS  ?= $(OPT)
ALL_CFLAGS := -std=c17 -D_DEFAULT_SOURCE $(WARN) -fPIC -Iinclude $(PKG_CFLAGS) $(CFLAGS) $(XCFLAGS)
LDLIBS  := $(PKG_LIBS) -lm -lpthread $(XLDFLAGS)

B       ?= build
Q       := $(if $(V),,@)
LIB_SRC := $(sort $(wildcard src/*/*.c))
CLI_SRC := $(sort $(wildcard cli/*.c))
# Open MPI: `diagnose --mpi` (cli/mpi.c) is built when mpicc is found
# (MPI=0: never); its flags come from `mpicc --showme`, the headers as
# system headers so that the warning set stays ours.
MPI     ?= 1
MPICC   := $(if $(filter 1,$(MPI)),$(shell command -v mpicc 2>/dev/null))
MPI_CFLAGS := $(if $(MPICC),$(patsubst -I%,-isystem %,$(shell $(MPICC) --showme:compile 2>/dev/null)))
MPI_LIBS   := $(if $(MPICC),$(shell $(MPICC) --showme:link 2>/dev/null))
ifeq ($(MPI_LIBS),)
CLI_SRC := $(filter-out cli/mpi.c,$(CLI_SRC))
endif
UT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
FZ_SRC  := $(sort $(wildcard fuzz/fuzz_*.c))
# the vendor's vocabulary (docs/VOCABULARY.md): vocab/*.tsv become
# $(B)/gen/vocab_tab.c, compiled into the library
VOCAB   := $(sort $(wildcard vocab/*.tsv vocab/sources/*.txt))
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o) $(B)/gen/vocab_tab.o
CLI_OBJ := $(CLI_SRC:%.c=$(B)/%.o)
UT_BIN  := $(UT_SRC:tests/unit/%.c=$(B)/tests/%)
FZ_BIN  := $(FZ_SRC:fuzz/%.c=$(B)/fuzz/%)

BIN     := $(if $(filter build,$(B)),hangdx,$(B)/hangdx)
# message catalogues (po/README.md): po/LL.po -> $(B)/locale/LL/LC_MESSAGES/hangdx.mo
LINGUAS := $(shell cat po/LINGUAS)
MO      := $(LINGUAS:%=$(B)/locale/%/LC_MESSAGES/hangdx.mo)

.PHONY: all units test demo deps bench fuzz mutate coverage asan valgrind install uninstall clean check-deps pot
all: $(B)/libhangdx.a $(B)/libhangdx.so $(BIN) $(MO)

$(B)/%.o: %.c $(wildcard include/*.h src/*/*.h cli/*.h)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(B)/gen/vocab_tab.c: $(VOCAB) scripts/vocab-gen.sh
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)sh scripts/vocab-gen.sh vocab > $@.tmp && mv $@.tmp $@

$(B)/gen/vocab_tab.o: $(B)/gen/vocab_tab.c src/ingest/ingest.h src/core/core.h
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -Isrc -c $< -o $@

$(B)/libhangdx.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(B)/libhangdx.so: $(LIB_OBJ)
	$(CC) -shared -o $@ $^ $(LDLIBS)

$(CLI_OBJ): ALL_CFLAGS += -DHANGDX_LOCALEDIR='"$(PREFIX)/share/locale"'
ifneq ($(MPI_LIBS),)
$(CLI_OBJ): ALL_CFLAGS += -DHANGDX_MPI=1
$(B)/cli/mpi.o: ALL_CFLAGS += $(MPI_CFLAGS)
endif

$(B)/locale/%/LC_MESSAGES/hangdx.mo: po/%.po
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  MSGFMT  $<")
	$(Q)msgfmt --check -o $@ $<

# the template, from the sources, into $(B)/hangdx.pot (po/README.md)
pot:
	sh po/xgettext.sh $(B)/hangdx.pot

$(BIN): $(CLI_OBJ) $(B)/libhangdx.a
	$(CC) $(ALL_CFLAGS) -o $@ $(CLI_OBJ) $(B)/libhangdx.a $(LDLIBS) $(MPI_LIBS)

$(B)/tests/%: tests/unit/%.c tests/unit/testutil.h tests/unit/ingestutil.h $(B)/libhangdx.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< $(B)/libhangdx.a $(LDLIBS) -lcmocka

# fuzz targets with a plain driver: `make test` replays corpus and regressions
$(B)/fuzz/%: fuzz/%.c fuzz/driver.c $(B)/libhangdx.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Isrc -o $@ $< fuzz/driver.c $(B)/libhangdx.a $(LDLIBS)

test: units
	@HANGDX=./$(BIN) B=$(B) sh tests/run.sh

# the binary, the library, every unit test program and fuzz driver
units: all $(UT_BIN) $(FZ_BIN)

# the mutation check (docs/TESTING.md): each mutation of tests/mutations.tsv
# must make one of its tests fail
mutate:
	@B=$(B) sh scripts/mutate.sh

# line and branch coverage of the suite, HTML in build-cov/coverage/
coverage:
	@sh scripts/coverage.sh

demo: deps all
	@sh scripts/demo.sh

deps:
	@sh scripts/deps.sh

bench: all
	@sh bench/run.sh

fuzz:
	@sh fuzz/run.sh

# the sanitizer build goes to build-asan, or to B when one is given
ASAN_B := $(if $(filter build,$(B)),build-asan,$(B))
asan:
	HANGDX_SANITIZED=1 HANGDX_NOMEM_CORPUS_STRIDE=2 \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	$(MAKE) B=$(ASAN_B) OPT="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
		XLDFLAGS="-fsanitize=address,undefined" test

VERSION := $(shell sed -n 's/^\#define HANGDX_VERSION "\(.*\)"/\1/p' include/hangdx.h)
INSTALLED := bin/hangdx lib/libhangdx.a lib/libhangdx.so include/hangdx.h \
	lib/pkgconfig/hangdx.pc share/man/man1/hangdx.1 \
	share/man/zh_CN/man1/hangdx.1 \
	share/bash-completion/completions/hangdx \
	$(LINGUAS:%=share/locale/%/LC_MESSAGES/hangdx.mo)

# every unit test program, then the CLI scripts of tests/valgrind-cli.sh
# with each run of hangdx, under valgrind's memcheck (errors and definite
# or indirect leaks fail)
valgrind: all $(UT_BIN) $(FZ_BIN)
	@fail=0; B=$(B) sh tests/valgrind-units.sh $(UT_BIN) || fail=1; \
	HANGDX=./$(BIN) B=$(B) sh tests/valgrind-cli.sh || fail=1; \
	if [ $$fail -eq 0 ]; then echo "valgrind: unit programs and CLI scripts clean"; \
	else echo "valgrind: FAILED (reports in $(B)/valgrind-*.log and $(B)/valgrind-cli/)"; fi; \
	exit $$fail

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/man/zh_CN/man1
	install -m 755 hangdx $(DESTDIR)$(PREFIX)/bin/hangdx
	install -m 644 $(B)/libhangdx.a $(DESTDIR)$(PREFIX)/lib/libhangdx.a
	install -m 755 $(B)/libhangdx.so $(DESTDIR)$(PREFIX)/lib/libhangdx.so
	install -m 644 include/hangdx.h $(DESTDIR)$(PREFIX)/include/hangdx.h
	install -m 644 docs/hangdx.1 $(DESTDIR)$(PREFIX)/share/man/man1/hangdx.1
	install -m 644 docs/hangdx.zh_CN.1 $(DESTDIR)$(PREFIX)/share/man/zh_CN/man1/hangdx.1
	for l in $(LINGUAS); do \
		install -d $(DESTDIR)$(PREFIX)/share/locale/$$l/LC_MESSAGES && \
		install -m 644 $(B)/locale/$$l/LC_MESSAGES/hangdx.mo \
			$(DESTDIR)$(PREFIX)/share/locale/$$l/LC_MESSAGES/hangdx.mo || exit 1; \
	done
	install -m 644 scripts/hangdx.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/hangdx
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' scripts/hangdx.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/hangdx.pc

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED))

clean:
	rm -rf build build-asan hangdx demo-out
