#!/bin/sh
# t80-install.sh - `make install` puts the binary, libraries, header,
# pkg-config file, man pages (English and Chinese), message catalogues and
# completion in place; a program builds against the installed library with
# pkg-config; the installed binary finds its Chinese messages and
# `man -L zh_CN` its Chinese manual; `make uninstall` removes every file it
# installed.
. tests/cli/lib.sh
D=$T/dest
P=/opt/hangdx-test
t_ok "make install" make -s install DESTDIR="$D" PREFIX="$P"
for f in bin/hangdx lib/libhangdx.a lib/libhangdx.so include/hangdx.h \
	lib/pkgconfig/hangdx.pc share/man/man1/hangdx.1 \
	share/man/zh_CN/man1/hangdx.1 share/locale/zh_CN/LC_MESSAGES/hangdx.mo \
	share/bash-completion/completions/hangdx; do
	t_ok "installed $f" test -f "$D$P/$f"
done
t_ok "pkg-config file names the prefix" grep -q "^prefix=$P\$" "$D$P/lib/pkgconfig/hangdx.pc"
cat > "$T/use.c" <<'C'
#include <stdio.h>
#include <hangdx.h>
int main(void) { puts(hangdx_strerror(HANGDX_ENOMEM)); return 0; }
C
# under `make asan` or `make coverage` the installed library is
# instrumented: link likewise
san=""
nm "$D$P/lib/libhangdx.a" 2>/dev/null | grep -q __asan && san="-fsanitize=address,undefined"
nm "$D$P/lib/libhangdx.a" 2>/dev/null | grep -q __gcov_init && san="--coverage"
t_ok "a program builds against the installed library" sh -c "
cc $san -I$D$P/include $T/use.c -o $T/use $D$P/lib/libhangdx.a \$(pkg-config --libs yaml-0.1 libarchive zlib libzstd) -lm -lpthread &&
test \"\$($T/use)\" = 'out of memory'"
t_ok "installed binary runs" sh -c "$D$P/bin/hangdx --version | grep -q '^hangdx '"
t_ok "installed binary speaks Chinese from its own catalogue" \
	sh -c "cd / && LANG=zh_CN.UTF-8 '$D$P/bin/hangdx' --help | grep -q '^用法：hangdx'"
if command -v man > /dev/null 2>&1; then
	t_ok "man -L zh_CN hangdx finds the Chinese manual" \
		sh -c "MANPATH='$D$P/share/man' man -L zh_CN -w hangdx | grep -q '/zh_CN/man1/hangdx.1' &&
		       MANPATH='$D$P/share/man' man -L en -w hangdx | grep -q '/man1/hangdx.1\$' &&
		       MANPATH='$D$P/share/man' LANG=C.UTF-8 MANWIDTH=80 man -L zh_CN hangdx 2>/dev/null | grep -q '定位昇腾 NPU'"
else
	t_missing "man -L zh_CN hangdx finds the Chinese manual" "man not installed (man-db)"
fi
t_ok "make uninstall" make -s uninstall DESTDIR="$D" PREFIX="$P"
t_ok "nothing left but directories" test -z "$(find "$D" -type f)"
t_done
