#!/usr/bin/env python3
"""tests/browser/netlog.py NETLOG.json: print, one a line, the URLs a page
asked Chromium's network stack for (--log-net-log).  Requests the browser
makes for itself (update checks, sign-in, network time) carry the initiator
"not an origin" and are left out; a document's requests carry its origin
("null" for a file:// page).  File URLs never reach the network stack.
Exit status 2 when the log cannot be read (Chromium may leave it
unterminated if it is killed)."""
import json
import sys


def load(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    for tail in ("", "]}", "{}]}"):
        try:
            return json.loads(text.rstrip().rstrip(",") + tail)
        except ValueError:
            continue
    return None


def main():
    log = load(sys.argv[1])
    if not log or "constants" not in log:
        return 2
    names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    for ev in log.get("events", []):
        if names.get(ev.get("type")) != "URL_REQUEST_START_JOB":
            continue
        p = ev.get("params", {})
        if "url" in p and p.get("initiator", "not an origin") != "not an origin":
            print(p["url"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
