#!/bin/sh
# t80-install.sh - `make install` puts the binary, libraries, header,
# pkg-config file, man page and completion in place; a program builds
# against the installed library with pkg-config; `make uninstall` removes
# every file it installed.
. tests/cli/lib.sh
D=$T/dest
P=/opt/hangdx-test
t_ok "make install" make -s install DESTDIR="$D" PREFIX="$P"
for f in bin/hangdx lib/libhangdx.a lib/libhangdx.so include/hangdx.h \
	lib/pkgconfig/hangdx.pc share/man/man1/hangdx.1 \
	share/bash-completion/completions/hangdx; do
	t_ok "installed $f" test -f "$D$P/$f"
done
t_ok "pkg-config file names the prefix" grep -q "^prefix=$P\$" "$D$P/lib/pkgconfig/hangdx.pc"
cat > "$T/use.c" <<'C'
#include <stdio.h>
#include <hangdx.h>
int main(void) { puts(hangdx_strerror(HANGDX_ENOMEM)); return 0; }
C
# under `make asan` the installed library is instrumented: link likewise
san=""
nm "$D$P/lib/libhangdx.a" 2>/dev/null | grep -q __asan && san="-fsanitize=address,undefined"
t_ok "a program builds against the installed library" sh -c "
cc $san -I$D$P/include $T/use.c -o $T/use $D$P/lib/libhangdx.a \$(pkg-config --libs yaml-0.1 libarchive zlib libzstd) -lm -lpthread &&
test \"\$($T/use)\" = 'out of memory'"
t_ok "installed binary runs" sh -c "$D$P/bin/hangdx --version | grep -q '^hangdx '"
t_ok "make uninstall" make -s uninstall DESTDIR="$D" PREFIX="$P"
t_ok "nothing left but directories" test -z "$(find "$D" -type f)"
t_done
