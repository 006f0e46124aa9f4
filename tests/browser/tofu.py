#!/usr/bin/env python3
# tests/browser/tofu.py REPORT.html PROBE.html - write a probe page that
# draws every distinct CJK character of the report's text on a canvas in
# the report's own body font stack and writes, into the DOM, how many of
# them come out as tofu: a blank glyph, or the very pixels of another
# character (every missing glyph is drawn as the same .notdef box).
# Headless Chromium runs it (tests/cli/t62-html-zh.sh); the report itself
# has no script.
import html, json, re, sys

page = open(sys.argv[1], encoding="utf-8").read()
fams = re.findall(r"body\{font-family:([^}]*)\}", page)
family = fams[-1] if fams else "sans-serif"
text = html.unescape(re.sub(r"<style>.*?</style>|<[^>]*>", " ", page, flags=re.S))
chars = sorted({c for c in text if ord(c) >= 0x2e80})
probe = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<canvas id="c" width="48" height="48"></canvas><p id="out">running</p>
<script>
const fam = %s, chars = %s;
const cx = document.getElementById("c").getContext("2d", {willReadFrequently: true});
function draw(ch) {
  cx.clearRect(0, 0, 48, 48);
  cx.font = "32px " + fam;
  cx.fillStyle = "#000";
  cx.fillText(ch, 4, 38);
  const d = cx.getImageData(0, 0, 48, 48).data;
  let s = "", ink = 0;
  for (let i = 3; i < d.length; i += 4) { s += d[i] > 127 ? "1" : "0"; ink += d[i] > 127; }
  return ink ? s : "";
}
const seen = new Map();
let tofu = [];
for (const ch of chars) {
  const im = draw(ch);
  if (!im) { tofu.push(ch); continue; }
  if (seen.has(im)) { tofu.push(ch); tofu.push(seen.get(im)); }
  else seen.set(im, ch);
}
tofu = [...new Set(tofu)];
document.getElementById("out").textContent =
  "chars=" + chars.length + " tofu=" + tofu.length + " [" + tofu.slice(0, 20).join("") + "]";
</script></body></html>
""" % (json.dumps(family), json.dumps(chars, ensure_ascii=False))
open(sys.argv[2], "w", encoding="utf-8").write(probe)
