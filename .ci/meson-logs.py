# SPDX-License-Identifier: GPL-2.0-or-later
"""What .ci/test-all reads from meson's test logs (meson-logs/*.json, one
JSON object a test).  A log counts only when it was written since STARTED
(seconds since the epoch): a developer's tree keeps the logs of earlier runs.

usage: python3 .ci/meson-logs.py STARTED count LOG
           prints "passed failed skipped"; exit 3 when LOG is not of this run
       python3 .ci/meson-logs.py STARTED skips LOG=STAGE...
           every skip with its reason: whole scripts ("1..0 # SKIP") and
           single checks ("ok N # SKIP")
       python3 .ci/meson-logs.py STARTED unran LOG... <`meson test --list`
           the listed tests that none of the logs ran; exit 1 when any
"""
import json
import os
import re
import sys

SKIP = re.compile(r"^(?:1\.\.0|ok\b[^#]*?)\s*#\s*skip\S*\s*(.*)$", re.I)


def results(started, log):
    """The tests of LOG, or None when it is not of this run."""
    if not os.path.exists(log) or os.path.getmtime(log) < started:
        return None
    with open(log) as f:
        return [json.loads(line) for line in f]


def short_name(name):
    """'numastatctl:cli / test-get' -> 'test-get'."""
    return name.split(" / ")[-1]


def count(started, log):
    tests = results(started, log)
    if tests is None:
        return 3
    passed = sum(t["result"] in ("OK", "EXPECTEDFAIL") for t in tests)
    skipped = sum(t["result"] == "SKIP" for t in tests)
    print(passed, len(tests) - passed - skipped, skipped)
    return 0


def skips(started, *pairs):
    found = []
    for pair in pairs:
        log, stage = pair.split("=", 1)
        for t in results(started, log) or []:
            reasons = [m.group(1) for m in map(SKIP.match, (t.get("stdout") or "").splitlines()) if m]
            if not reasons and t["result"] == "SKIP":
                reasons = [""]
            found += [f"  {stage}: {short_name(t['name'])}: {why or '(no reason given)'}"
                      for why in dict.fromkeys(reasons)]
    print(f"skipped tests and checks: {len(found) or 'none'}")
    for line in found:
        print(line)
    return 0


def unran(started, *logs):
    ran = {short_name(t["name"]) for log in logs for t in results(started, log) or []}
    listed = [short_name(line) for line in sys.stdin.read().split("\n") if " / " in line]
    left = [t for t in listed if t not in ran]
    print("tests that no stage ran: " + (" ".join(left) if left else "none"))
    return 1 if left else 0


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[2] not in ("count", "skips", "unran"):
        sys.exit(__doc__.split("\n\n")[1])
    sys.exit({"count": count, "skips": skips, "unran": unran}[sys.argv[2]](float(sys.argv[1]), *sys.argv[3:]))
