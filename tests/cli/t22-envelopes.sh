#!/bin/sh
# t22-envelopes.sh - the envelope a launcher or a paste puts around each
# line does not change a verdict: tests/envelope_invariance.py diagnoses
# every fourth excerpt of the corpus bare and inside eight envelopes
# (Windows line ends, indentation, a Markdown quote, docker compose, Ray,
# pdsh, colour codes without their ESC byte, grep's path and number).  The checker must be able
# to fail: a stand-in for hangdx whose verdict follows docker compose's
# bar is caught.
. tests/cli/lib.sh
python3 tests/envelope_invariance.py "$HANGDX" 4 tests/field > "$T/env.tap"
t_ok "every fourth excerpt, eight envelopes: no verdict changes" \
	sh -c "grep -q '^1\.\.[1-9]' '$T/env.tap' && ! grep '^not ok' '$T/env.tap'"
cat > "$T/stub" <<'STUB'
#!/bin/sh
if grep -q ' | ' ; then echo '{"hang": true, "category": "unknown"}'
else echo '{"hang": false, "category": "none"}'; fi
STUB
chmod +x "$T/stub"
t_ok "a verdict that changes inside an envelope is caught" \
	sh -c "! python3 tests/envelope_invariance.py '$T/stub' 200 tests/field > '$T/stub.tap' &&
	       grep -q '^not ok .* in compose: ' '$T/stub.tap'"
t_done
