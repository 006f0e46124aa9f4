# tests/browser/lib.sh - headless Chromium for the report tests
# (tests/cli/t60-html.sh): finds the browser, runs it offline (every host
# name resolves to nothing, no sync, no component update, no first run,
# a fresh profile in $T, a time limit).  Source it after tests/cli/lib.sh.
# Without a browser that renders, the scripts skip each browser check
# (t_missing_from: failures under CI); hx_browser then runs nothing.
# HX_BROWSER set (even empty) in the environment overrides the search.
: "${HX_BROWSER=$(command -v chromium || command -v chromium-browser ||
	command -v google-chrome || true)}"
HX_HERE=$ROOT/tests/browser

# hx_browser ARGS... URL: one headless run, at most 60 s.
hx_browser() {
	t_skipping && return 99
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

# hx_browser_need: start skipping the browser checks (up to t_skip_end)
# when there is no browser that renders
hx_browser_need() {
	if [ -z "$HX_BROWSER" ]; then
		t_missing_from "chromium not installed"
	elif ! hx_browser_ok; then
		t_missing_from "chromium ($HX_BROWSER) does not render a page"
	fi
}
