#!/bin/sh
# po/xgettext.sh OUT.pot - extract every translatable string of the sources
# into a template.  Strings are found by _() and N_() and by the functions
# that take a message format (diagnostics, the diagnosis lists, the chain
# hops, usage errors), so a FIX(...) or hx_rdiag(...) added later is
# picked up without marking.  The X-macro tables are read with their own
# keyword: the error texts of include/hangdx.h (2nd argument) and the
# category titles of src/analyze/analyze.h (3rd argument).
set -e
out=${1:-po/hangdx.pot}
cd "$(dirname "$0")/.."
common="--from-code=UTF-8 --language=C --add-comments=TRANSLATORS: --sort-by-file
	--package-name=hangdx --msgid-bugs-address=hangdx --no-wrap --add-location=file"
kw="-k_ -kN_ -khx_diag:6 -khx_rdiag:4 -kdiag:5 -kld_err:3 -kld_err_at:4
	-krc_err:3 -kset_error:2 -kFIX:1 -kFACT:1 -kWARN:1 -kMISSING:1
	-khx_dlist_add:5 -khx_hop_add:5 -kcli_usage_error:2 -kNOTE:1 -kthr_note:2"
tmp=$out.tmp
# shellcheck disable=SC2086
xgettext $common $kw -o "$tmp" \
	$(ls src/*/*.c src/*/*.h cli/*.c cli/*.h | LC_ALL=C sort)
sed -i 's/^"Content-Type: text\/plain; charset=CHARSET/"Content-Type: text\/plain; charset=UTF-8/' "$tmp"
# shellcheck disable=SC2086
xgettext $common -j -kXX:2 -o "$tmp" include/hangdx.h
# shellcheck disable=SC2086
xgettext $common -j -kXX:3 -o "$tmp" src/analyze/analyze.h
# the template's creation date would make every run differ
sed -e '/^"POT-Creation-Date:/d' "$tmp" > "$out"
rm -f "$tmp"
