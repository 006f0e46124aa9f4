# tests/browser/lib.sh - headless Chromium for the report tests
# (tests/cli/t60-html.sh): finds the browser, runs it offline (every host
# name resolves to nothing, no sync, no component update, no first run,
# a fresh profile in $T, a time limit), and prints honest TAP skips when
# it cannot run.  Source it after tests/cli/lib.sh.
# HX_BROWSER set (even empty) in the environment overrides the search.
: "${HX_BROWSER=$(command -v chromium || command -v chromium-browser ||
	command -v google-chrome || true)}"
HX_HERE=$ROOT/tests/browser

# hx_browser ARGS... URL: one headless run, at most 60 s.
hx_browser() {
	_prof=$(mktemp -d "$T/profile.XXXXXX")
	timeout 60 "$HX_BROWSER" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --disable-extensions \
		--user-data-dir="$_prof" --host-resolver-rules="MAP * ~NOTFOUND" "$@"
}

# hx_browser_ok: is there a browser that renders a trivial page?
hx_browser_ok() {
	[ -n "$HX_BROWSER" ] || return 1
	printf '<!DOCTYPE html><title>t</title><p>hangdx-probe</p>\n' > "$T/probe.html"
	hx_browser --dump-dom "file://$T/probe.html" 2> /dev/null |
		grep -q hangdx-probe
}

# t_skip DESC REASON: an honest TAP skip.
t_skip() {
	_n=$((_n + 1))
	echo "ok $_n - $1 # SKIP $2"
}
