#!/bin/sh
# t60-html.sh - the HTML and SVG reports (docs/REPORTS.md).  Without a
# browser: the page of the simulated reference incident has the verdict,
# the chain linked to its evidence, the inline graph without prolog, the
# timeline, and no script or external reference; without Graphviz it says
# so (golden, byte for byte) and --svg fails cleanly; hostile log text
# (HTML and DOT metacharacters in an op name, a group and a directory
# name) stays text in HTML, JSON and DOT.  With headless Chromium: the
# pages render (verdict in the DOM, a screenshot kept under
# $B/artefacts), log no console message and ask the network for nothing
# (checked against canaries that must trip both detectors).
. tests/cli/lib.sh
. tests/browser/lib.sh
G=tests/golden/diagnose
ART=$ROOT/${B:-build}/artefacts
cd "$T" || exit 1

"$HANGDX" simulate -q --preset reference -o reference > /dev/null 2>&1
"$HANGDX" diagnose --html r.html --svg r.svg --dot r.dot reference > /dev/null 2> r.err
echo $? > r.rc
t_ok "diagnose --html --svg: exit 1 (hang), nothing on stderr" \
	sh -c 'test "$(cat r.rc)" -eq 1 && test ! -s r.err'

# -- the page, read as text ------------------------------------------------
t_ok "html: doctype, charset, CSP without script or network" \
	sh -c 'head -3 r.html | grep -q "^<!DOCTYPE html>" &&
	       grep -q "<meta charset=\"utf-8\">" r.html &&
	       grep -q "Content-Security-Policy\" content=\"default-src '"'"'none'"'"'; style-src '"'"'unsafe-inline'"'"';" r.html'
t_ok "html: verdict heading and summary" \
	sh -c 'grep -q "<h1 id=\"verdict\"><span class=\"badge\">DEADLOCK</span>AICPU exhaustion deadlock<span class=\"proven\">proven</span></h1>" r.html &&
	       grep -q "<p class=\"summary\">Deadlock, proven on the device state" r.html'
t_ok "html: root and first failing rank, fix list" \
	sh -c 'grep -q "<dt>root cause ranks</dt><dd><b>rank 0, rank 1</b>" r.html &&
	       grep -q "<dt>first failing rank</dt><dd><b>rank 0</b> at <code>2026-11-01T07:30:36.000075" r.html &&
	       test "$(sed -n "/<ol class=\"fix\">/,/<\/ol>/p" r.html | grep -c "^<li>")" -eq 4'
t_ok "html: 7 hops, each citing an evidence entry that exists (the pool: HCCL's AicpuComm line)" \
	sh -c 'test "$(grep -c "<li class=\"hop cyc\" id=\"hop-" r.html)" -eq 7 &&
	       for n in $(grep -o "href=\"#ev-[0-9]*\"" r.html | grep -o "[0-9]*" | sort -u); do
	           grep -q "<li class=\"ev\" id=\"ev-$n\">" r.html || exit 1; done &&
	       test "$(grep -o "<li class=\"ev\" id=\"ev-[0-9]*\"" r.html | wc -l)" -eq 8 &&
	       grep -q "device-100003_20261101070000000.log:470</code>" r.html'
t_ok "html: the cited lines are quoted from the logs" \
	sh -c 'grep -q "<pre>\[ERROR\] TSCH(-1,null):2026-11-01-07:30:36.000.075 " r.html'
t_ok "html: graph inlined: <svg> without prolog, DOCTYPE or comments, cycle in red" \
	sh -c 'test "$(grep -c "^<svg width=" r.html)" -eq 1 && ! grep -q "<?xml\|<!DOCTYPE svg\|<!--" r.html &&
	       grep -q "stroke=\"red\"" r.html'
t_ok "html: timeline as SVG with a mark per rank and the table" \
	sh -c 'grep -q "<svg class=\"timeline\"" r.html &&
	       test "$(grep -c "<title>rank [01]: first failure at 2026-11-01T07:30:36.000075" r.html)" -eq 2 &&
	       grep -q "<table class=\"tl\">" r.html'
t_ok "html: groups, the configuration as the deadlock's cause" \
	sh -c 'grep -q "<td>notify wait timeout in AllReduce index 0</td><td class=\"mono\">0–1</td>" r.html &&
	       grep -q "The configuration the logs echo is this deadlock&#39;s cause: 2 ranks" r.html &&
	       ! grep -q "Danger zone" r.html'
# no script or embedding element, and no src/href/url() leaving the page:
# log text is escaped, so every "<" starts a tag of ours
selfcontained() {
	test -s "$1" &&
	! grep -qi "<script\|<iframe\|<object\|<embed\|<link\|<img\|<image\|<use\|@import" "$1" &&
	! grep -Eqi "<[^>]*[[:space:]:](src|href|action|srcset|poster|data)[[:space:]]*=[[:space:]]*[\"']?[[:space:]]*[^\"'#[:space:]>]" "$1" &&
	! grep -Eqi "<[^>]*url\([[:space:]]*[\"']?[^#\"'[:space:]]" "$1" &&
	! sed -n '/<style>/,/<\/style>/p' "$1" | grep -qi "url("
}
t_ok "html: no script, no external reference (src, href, url())" selfcontained r.html
t_ok "svg: Graphviz's standalone SVG" \
	sh -c 'head -1 r.svg | grep -q "^<?xml" && grep -q "^<svg width=" r.svg'

# -- without Graphviz --------------------------------------------------------
PATH=/nonexistent "$HANGDX" diagnose --html nodot.html reference > /dev/null 2> nodot.err
echo $? > nodot.rc
t_ok "no dot: exit 1 still, and stderr says dot was not found" \
	sh -c 'test "$(cat nodot.rc)" -eq 1 && grep -q "cannot render the wait-for graph: dot not found" nodot.err'
t_ok "no dot: the page says the graph could not be rendered" \
	sh -c 'grep -q "The graph could not be rendered: Graphviz" nodot.html && ! grep -q "<svg width=" nodot.html'
t_golden "no dot: simulated reference html (golden)" "$ROOT/$G/sim-reference.html" nodot.html
PATH=/nonexistent "$HANGDX" diagnose --svg nodot.svg reference > /dev/null 2>&1
echo $? > nodot-svg.rc
t_ok "no dot: --svg exits 4 and leaves no file" \
	sh -c 'test "$(cat nodot-svg.rc)" -eq 4 && ! ls nodot.svg* > /dev/null 2>&1'

# -- hostile log text --------------------------------------------------------
XSS1='<script>alert(1)</script>"><img src=x onerror=alert(2)>"};\l'
HDIR='job-"}];\l<img src=x onerror=alert(5)>'
cp -r reference "$HDIR"
cp "$DATA/samples/01-hccl-doc-ei0002-op-mismatch-allreduce-vs-allgather.log" "$HDIR/mismatch.log"
find "$HDIR" -name '*.log' -exec sed -i \
	-e 's/tag\[AllReduce_127/tag[<script>alert(1)<\/script>"><img src=x onerror=alert(2)>"};\\l_127/' \
	-e 's/group:\[127.10.0.1%enp/group:[<script>alert(3)<\/script>"}];\\l%enp/' {} +
"$HANGDX" diagnose --color=never "$HDIR/mismatch.log" > h1.txt 2>/dev/null
"$HANGDX" diagnose --html h1.html --dot h1.dot "$HDIR/mismatch.log" > /dev/null 2>&1
"$HANGDX" diagnose --html h2.html --dot h2.dot "$HDIR" > /dev/null 2>&1
t_ok "hostile: the op name from the tag reaches the report" grep -qF "$XSS1 index 21" h1.txt
t_ok "hostile: html shows it escaped, never as markup" \
	sh -c 'for f in h1.html h2.html; do
	           grep -q "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;&quot;};\\\\l" $f || exit 1
	           grep -q "job-&quot;}];\\\\l&lt;img src=x onerror=alert(5)&gt;" $f || exit 1
	           ! grep -q "<script\|<img" $f || exit 1; done'
t_ok "hostile: html 1 self-contained" selfcontained h1.html
t_ok "hostile: html 2 self-contained" selfcontained h2.html
t_ok "hostile: JSON still valid" \
	sh -c '"$0" diagnose --json "$1/mismatch.log" | python3 -m json.tool > /dev/null &&
	       "$0" diagnose --json "$1" | python3 -m json.tool > /dev/null' "$HANGDX" "$HDIR"
t_ok "hostile: DOT renders without a warning" \
	sh -c 'for f in h1 h2; do dot -Tsvg $f.dot -o $f.svg 2> $f.err && test ! -s $f.err || exit 1; done &&
	       grep -q "<svg" h2.svg && grep -q "n[0-9]* -> n[0-9]*" h2.dot'

# -- in the browser ------------------------------------------------------------
hx_browser_need
# canaries: a console error and a network request must be seen, or the
# detectors below prove nothing
netlog_works=1
: > canary.err
if ! t_skipping; then
	printf '<!DOCTYPE html><img src="http://hangdx-canary.invalid/x.png"><script>console.error("hangdx-canary")</script>\n' > canary.html
	hx_browser --dump-dom --enable-logging=stderr --v=0 --log-net-log="$T/canary-net.json" \
		"file://$T/canary.html" > /dev/null 2> canary.err
	python3 "$HX_HERE/netlog.py" canary-net.json > canary.urls
	netlog_works=$?
	grep -q "hangdx-canary.invalid" canary.urls || netlog_works=1
fi

hx_browser --dump-dom --enable-logging=stderr --v=0 --log-net-log="$T/net.json" \
	"file://$T/r.html" > r.dom 2> r.browser
t_ok "chromium: reference renders: verdict in the DOM" \
	sh -c 'grep -q "<span class=\"badge\">DEADLOCK</span>AICPU exhaustion deadlock" r.dom &&
	       grep -q "Deadlock, proven on the device state rebuilt from the logs" r.dom &&
	       grep -q "<svg class=\"timeline\"" r.dom'
hx_browser --screenshot="$T/shot.png" --window-size=1280,2000 --hide-scrollbars \
	"file://$T/r.html" > /dev/null 2>&1
mkdir -p "$ART" && cp shot.png "$ART/t60-reference.png" 2>/dev/null
t_ok "chromium: screenshot ($ART/t60-reference.png)" \
	sh -c 'test "$(head -c 8 shot.png | od -An -c | tr -d " ")" = "211PNG\r\n032\n" && test "$(wc -c < shot.png)" -gt 50000'
t_skipping || echo "# screenshot: $ART/t60-reference.png"
if grep -q "CONSOLE.*hangdx-canary" canary.err; then
	t_ok "chromium: no console message" sh -c '! grep -E ":CONSOLE|Uncaught" r.browser'
else
	t_skip "chromium: no console message" "console log not seen for the canary"
fi
if [ "$netlog_works" -eq 0 ]; then
	t_ok "chromium: no network request (net log)" \
		sh -c 'python3 "$0" net.json > r.urls && test ! -s r.urls' "$HX_HERE/netlog.py"
else
	t_skip "chromium: no network request (net log)" \
		"net log unreadable; static check and resolver rule only"
fi
hx_browser --dump-dom --enable-logging=stderr --v=0 "file://$T/h1.html" > h1.dom 2> h1.browser
t_ok "chromium: hostile page renders its text as text" \
	sh -c 'grep -q "&lt;script&gt;alert(1)&lt;/script&gt;" h1.dom &&
	       ! grep -q "<script\|<img" h1.dom && ! grep -E ":CONSOLE|Uncaught" h1.browser'
t_done
