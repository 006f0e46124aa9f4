#!/bin/sh
# t21-vocab.sh - the vendor's vocabulary (vocab/, docs/VOCABULARY.md):
# scripts/vocab-check.sh passes on the tables as committed and fails,
# naming the code, on a copy with a row removed, a class misspelt, a key
# repeated, a row citing a source that does not define it, or a phrase
# gone from its source; --fetch finds a code new in a (fake, local)
# repository; scripts/vocab-gen.sh writes one C row per table row.
. tests/cli/lib.sh

check() {
	sh scripts/vocab-check.sh "$@"
}

# check --dir DIR fails and its diagnostics name what
fails_naming() {
	what=$1
	shift
	if check "$@" > "$T/.check" 2>&1; then
		echo "vocab-check passed, want a failure naming $what"
		return 1
	fi
	cat "$T/.check"
	grep -q -- "$what" "$T/.check"
}

copy() {
	rm -rf "$T/v"
	cp -r vocab "$T/v"
}

t_ok "the tables cover every code of vocab/sources" check
t_ok "the check says how many rows and sources" sh -c \
	'sh scripts/vocab-check.sh | grep -q "rows in 12 tables, [0-9]* sources, all codes covered"'

copy
sed -i '/^507014	/d' "$T/v/runtime.tsv"
t_ok "a runtime row removed: fails naming 507014" fails_naming 507014 --dir "$T/v"

copy
sed -i '/^EI0002	/d' "$T/v/errmgr.tsv"
t_ok "an error-manager row removed: fails naming EI0002" fails_naming EI0002 --dir "$T/v"

copy
sed -i '/^ERR02200	/d' "$T/v/torch_npu.tsv"
t_ok "a torch_npu row removed: fails naming ERR02200" fails_naming ERR02200 --dir "$T/v"

copy
sed -i '/^MIE05E01001B	/d' "$T/v/mindie.tsv"
t_ok "a MindIE code's row removed: fails naming MIE05E01001B" fails_naming MIE05E01001B --dir "$T/v"

copy
sed -i '/^MIE04\*1C	/d' "$T/v/mindie.tsv"
t_ok "a MindIE server error type's row removed: fails naming MIE04*1C" fails_naming 'MIE04\*1C' --dir "$T/v"

copy
sed -i '/^-12	/d' "$T/v/errno.tsv"
t_ok "an errno row removed: fails naming -12" fails_naming -12 --dir "$T/v"

copy
sed -i '/^328100	/d' "$T/v/runtime.tsv"
t_ok "an HCCP code made of its list removed: fails naming 328100" fails_naming 328100 --dir "$T/v"

copy
sed -i 's/^{-ENOMEM, 3, 0},$/{-ENOMEM, 3, 9},/' "$T/v/sources/hccp_errcode_list.txt"
t_ok "HCCP's list changed under its rows: fails naming 328009" fails_naming 328009 --dir "$T/v"

copy
sed -i '/^21008	/d' "$T/v/aicpu.tsv"
t_ok "an AICPU errcode row removed: fails naming 21008" fails_naming 21008 --dir "$T/v"

copy
sed -i '/^135175	/d' "$T/v/aicpu.tsv"
t_ok "the raw AICPU timeout (0x21007 in its source) removed: fails naming 135175" \
	fails_naming 135175 --dir "$T/v"

copy
sed -i 's/^9	HCCL_E_TIMEOUT	wait_timeout/9	HCCL_E_TIMEOUT	hang/' "$T/v/hccl.tsv"
t_ok "a class that is none of the seven: fails" fails_naming "class 'hang'" --dir "$T/v"

copy
grep '^507014	' vocab/runtime.tsv >> "$T/v/runtime.tsv"
t_ok "a key twice: fails" fails_naming "key 507014 repeated" --dir "$T/v"

copy
sed -i 's/^\(507014	.*	\)rt_error_codes$/\1acl_base_rt/' "$T/v/runtime.tsv"
t_ok "a row citing a source that does not define it: fails" \
	fails_naming "507014: not defined in sources/acl_base_rt.txt" --dir "$T/v"

copy
sed -i '/ms for recv operation to complete/d' "$T/v/sources/gloo_unbound_buffer.txt"
t_ok "a phrase gone from its source: fails" \
	fails_naming "ms for recv operation to complete" --dir "$T/v"

copy
printf 'short\tx\tunknown\tm\tgloo_unbound_buffer\textra\n' >> "$T/v/framework.tsv"
t_ok "a row of six columns: fails" fails_naming "6 columns, want 5" --dir "$T/v"

# --fetch against a repository under a local directory: a code new there
f=$T/fetch/hicann+runtime
mkdir -p "$f/include/external/acl/error_codes"
{
	sed 1d vocab/sources/rt_error_codes.txt
	echo '#define ACL_ERROR_RT_SOMETHING_NEW 507998 // new'
} > "$f/include/external/acl/error_codes/rt_error_codes.h"
(cd "$f" && git init -q && git add . &&
	git -c user.name=t -c user.email=t@t commit -qm fake) > /dev/null 2>&1
t_ok "--fetch: a code new in the fetched source fails, named" \
	fails_naming "code 507998 is new" --fetch "$T/fetch"
t_ok "--fetch: sources not fetched are skipped, said so" \
	grep -q "skipped" "$T/.check"

# the generator: one C row per table row, sorted as memcmp within a family
rows=$(cat vocab/*.tsv | grep -v '^#' | grep -c .)
t_ok "scripts/vocab-gen.sh writes every row ($rows)" sh -c \
	"sh scripts/vocab-gen.sh vocab > '$T/tab.c' && [ \$(grep -c '^	{ \".*HX_VF_' '$T/tab.c') -eq $rows ] && grep -q 'hx_vocab_nrows = $rows;' '$T/tab.c'"
copy
printf 'x\ty\tunknown\tm\tno_such_source\n' >> "$T/v/framework.tsv"
t_exit 1 "scripts/vocab-gen.sh refuses a row citing no source" \
	sh -c "sh scripts/vocab-gen.sh '$T/v' > /dev/null"

t_done
