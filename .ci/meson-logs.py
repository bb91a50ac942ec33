# SPDX-License-Identifier: GPL-2.0-or-later
"""What .ci/test-all reads from meson's test logs (meson-logs/*.json, one
JSON object a test).  A log counts only when it was written since STARTED
(seconds since the epoch): a developer's tree keeps the logs of earlier runs.

usage: python3 .ci/meson-logs.py STARTED count LOG
           prints "passed failed skipped"; exit 3 when LOG is not of this run
       python3 .ci/meson-logs.py STARTED checks LOG
           the same, counting each TAP check of a test ("ok", "not ok",
           "ok N # SKIP") instead of the test, and a test that printed
           none (it died first) as one result
       python3 .ci/meson-logs.py STARTED failures LOG
           each failed TAP check ("not ok") with its comment lines, and
           each failed test that printed no failed check (its last lines)
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


TAP_CHECK = re.compile(r"^(not )?ok\b[^#]*(#\s*skip)?", re.I)


def checks(started, log):
    tests = results(started, log)
    if tests is None:
        return 3
    passed = failed = skipped = 0
    for t in tests:
        lines = [m for m in map(TAP_CHECK.match, (t.get("stdout") or "").splitlines()) if m]
        if not lines:
            ok = t["result"] in ("OK", "EXPECTEDFAIL")
            skip = t["result"] == "SKIP"
            passed, failed, skipped = passed + ok, failed + (not ok and not skip), skipped + skip
            continue
        skipped += sum(bool(m.group(2)) and not m.group(1) for m in lines)
        failed += sum(bool(m.group(1)) for m in lines)
        passed += sum(not m.group(1) and not m.group(2) for m in lines)
        # A test that failed without a failing check (a bad plan, a crash
        # after its last check) counts one failure more.
        if t["result"] not in ("OK", "EXPECTEDFAIL", "SKIP") and not any(m.group(1) for m in lines):
            failed += 1
    print(passed, failed, skipped)
    return 0


def failures(started, log):
    for t in results(started, log) or []:
        if t["result"] in ("OK", "EXPECTEDFAIL", "SKIP"):
            continue
        lines = (t.get("stdout") or "").splitlines()
        shown, keep = [], False
        for line in lines:
            if line.startswith("not ok"):
                keep = True
            elif not line.startswith("#"):
                keep = False
            if keep:
                shown.append(line)
        print(f"{short_name(t['name'])}: {t['result']}" + ("" if shown else ", its last lines:"))
        for line in shown or lines[-25:]:
            print("  " + line)
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
    if len(sys.argv) < 4 or sys.argv[2] not in ("count", "checks", "failures", "skips", "unran"):
        sys.exit(__doc__.split("\n\n")[1])
    sys.exit({"count": count, "checks": checks, "failures": failures, "skips": skips, "unran": unran}[sys.argv[2]](float(sys.argv[1]), *sys.argv[3:]))
