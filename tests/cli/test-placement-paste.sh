#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# placement's printed commands, pasted: every fix line printed for every
# placement and container fixture, hostile cgroup names included ($(...),
# ';', a quote, a newline, ESC, OSC 52, U+202E, a path over 1,100 bytes),
# is run by bash with every command it may call stubbed (the stubs write
# their argv, NUL-separated) and /sys/fs/cgroup a tmpfs of its own (a mount
# namespace: a redirect writes there, never to the host's cgroups).  The
# argv and the file written must be exactly the ones intended, computed
# here from the fixture's names; no PWNED file, no other command, and no
# control byte, bidi or zero-width mark on stdout.  The text lines carry
# the -J commands.
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/fixtures/fixture-lib.sh
. "$FIXTURES/fixture-lib.sh"

unshare -rm true 2>/dev/null ||
	skip_all "needs unshare -rm: the pasted redirects get a cgroup tree of their own"

STUBS=$TMP/stubs
mkdir -p "$STUBS"
for c in systemctl migratepages numactl podman sysctl numastatctl touch id; do
	printf '#!/bin/bash\nprintf "%%s\\0" "${0##*/}" "$@" >"$LOGDIR/$BASHPID"\n' >"$STUBS/$c"
	chmod +x "$STUBS/$c"
done
# touch does what it says too: a PWNED file is the proof an injection ran.
printf '\nfor f; do : >>"$f"; done\n' >>"$STUBS/touch"
# Any other command a line would run is logged too (bash reads BASH_ENV first).
printf '%s\n' 'command_not_found_handle() { printf "%s\0" NOTFOUND "$@" >"$LOGDIR/nf$BASHPID"; return 127; }' \
	>"$TMP/bash-env"

cat >"$TMP/paste.py" <<'PY'
"""Paste each -J fix of one run into bash; print PASS/FAIL lines."""
import json, os, re, shutil, subprocess, sys

text_file, json_file, names_file, stubs, env_file, work = sys.argv[1:7]
BASH = shutil.which("bash")
CG = "/sys/fs/cgroup"
LABELS = ("move it now", "start it local", "keep it local", "or let the kernel move it", "move it")
out = []


def say(ok, what):
    out.append(("PASS " if ok else "FAIL ") + what)


text = open(text_file, "rb").read()
doc = json.load(open(json_file))
fixes = [(t, c) for t in doc["targets"] for c in (t.get("fixes") or [])]

# Control bytes on stdout: none but the newlines between lines.
bad = sorted({b for b in text if (b < 0x20 and b != 0x0A) or b == 0x7F})
say(not bad, "no control byte on stdout%s" % (": %r" % bad if bad else ""))
HIDDEN = re.compile("[\u0080-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
marks = sorted(set(HIDDEN.findall(text.decode("utf-8", "replace"))))
say(not marks, "no bidi, zero-width or C1 character on stdout%s" % (": %r" % marks if marks else ""))

# The text lines: "    LABEL: CMD" and perhaps " (note)", CMD one of the -J commands.
cmds = [c for _, c in fixes]
lines = [l for l in text.decode("utf-8", "replace").split("\n")
         if re.match(r"^    (%s): " % "|".join(LABELS), l) and not l.endswith(": no command")]
unmatched = []
left = list(cmds)
for l in lines:
    rest = l.split(": ", 1)[1]
    hit = next((c for c in left if rest == c or (rest.startswith(c + " (") and rest.endswith(")"))), None)
    if hit is None:
        unmatched.append(l)
    else:
        left.remove(hit)
say(not unmatched and not left,
    "text lines carry the -J commands (%d)%s" % (len(cmds), "" if not unmatched and not left else
                                                 ": text %r, json %r" % (unmatched, left)))


def intended_hostile():
    """What the hostile fixture's commands are meant to do, from its names."""
    names = open(names_file, "rb").read().split(b"\0")[:-1]
    want = [("write", CG.encode() + b"/system.slice/" + n + b"/cpuset.mems", b"0\n") for n in names]
    want.append(("argv", [b"systemctl", b"--user", b"-M", b"1000@", b"set-property", b"sshd.service",
                          b"AllowedMemoryNodes=0"]))
    want.append(("argv", [b"systemctl", b"set-property", b"a\\x2db.service", b"AllowedMemoryNodes=0"]))
    # Every cgroup has remote anonymous memory and balancing is off.
    want += [("argv", [b"sysctl", b"-w", b"kernel.numa_balancing=1"])] * (len(names) + 3)
    return want


def intended_plain(t, cmd):
    """Commands of plain words: the words; a redirect: the target's own cpuset.mems."""
    if re.search(r"[^A-Za-z0-9_@%+=:,./ >-]", cmd):
        return None
    if " > " in cmd:
        words = cmd.split(" > ")[0].split(" ")
        if words[0] != "echo" or len(words) != 2:
            return None
        path = CG + (t["cgroup"] if t["cgroup"] != "/" else "") + "/cpuset.mems"
        return ("write", path.encode(), words[1].encode() + b"\n")
    return ("argv", [w.encode() for w in cmd.split(" ")])


def clear(d):
    for e in os.listdir(d):
        p = os.path.join(d, e)
        shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.unlink(p)


def written():
    files = []
    for root, _, fs in os.walk(CG.encode()):
        for f in fs:
            p = os.path.join(root, f)
            files.append((p, open(p, "rb").read()))
    return files


logdir = os.path.join(work, "log")
os.makedirs(logdir, exist_ok=True)
hostile = names_file != "-"
want = intended_hostile() if hostile else None
got_all = []
for t, cmd in fixes:
    clear(logdir)
    clear(CG)
    if os.path.exists(os.path.join(work, "PWNED")):
        os.unlink(os.path.join(work, "PWNED"))
    # The directory a redirect is meant to write in, made from the names alone.
    targets = [w[1] for w in (want or []) if w[0] == "write"]
    exp = None if hostile else intended_plain(t, cmd)
    if exp and exp[0] == "write":
        targets = [exp[1]]
    for p in targets:
        os.makedirs(os.path.dirname(p), exist_ok=True)
    r = subprocess.run([BASH, "-c", cmd], cwd=work, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE,
                       env={"PATH": stubs, "BASH_ENV": env_file, "LOGDIR": logdir})
    runs = [open(os.path.join(logdir, f), "rb").read().split(b"\0")[:-1] for f in sorted(os.listdir(logdir))]
    files = written()
    effect = [("argv", a) for a in runs] + [("write", p, d) for p, d in files]
    if os.path.exists(os.path.join(work, "PWNED")):
        say(False, "no PWNED file after %r" % cmd)
    if r.returncode != 0 or len(effect) != 1:
        say(False, "%r: one command or one write, exit 0: got %r, exit %d %r" %
            (cmd, effect, r.returncode, r.stderr))
        continue
    got = effect[0]
    if hostile:
        if got in want:
            want.remove(got)
        else:
            say(False, "%r did %r, which no name asks for" % (cmd, got))
    elif exp is None:
        say(False, "%r: quoted words in a fixture of plain names" % cmd)
    elif got != exp:
        say(False, "%r did %r, not %r" % (cmd, got, exp))
    got_all.append(got)
if hostile:
    say(not want, "every intended command printed and run (%d)%s" %
        (len(got_all), ": missing %r" % want if want else ""))
say(len(got_all) == len(fixes), "each of the %d commands ran as intended" % len(fixes))
print("\n".join(out))
PY

# paste WHAT NAMES PLACEMENT-ARGS...: run placement (text and -J), then paste its fixes.
paste() {
	local what=$1 names=$2 line
	shift 2
	run placement "$@"
	cp "$TMP/out" "$TMP/text"
	run placement -J "$@"
	cp "$TMP/out" "$TMP/json"
	rm -rf "$TMP/work"
	mkdir -p "$TMP/work"
	while IFS= read -r line; do
		case $line in
		PASS*) ok "$what: ${line#PASS }" ;;
		FAIL*) not_ok "$what: ${line#FAIL }" ;;
		*) not_ok "$what: the paste checker said: $line" ;;
		esac
	done < <(unshare -rm sh -c 'mount -t tmpfs none /sys/fs/cgroup && exec "$@"' sh \
		"$PYTHON" "$TMP/paste.py" "$TMP/text" "$TMP/json" "$names" "$STUBS" "$TMP/bash-env" \
		"$TMP/work" 2>&1)
}

PYTHON=$(command -v /usr/bin/python3 || command -v python3)
PIDS=(--pid 100 --pid 200 --pid 300 --pid 500)
for c in procs nocpuset onetier; do
	gen_fixture gen-placement.sh "$c"
	paste "$c" - "${PIDS[@]}" --cgroup '/system.slice/*'
done
gen_fixture gen-placement.sh intent
paste intent - --pid 1100 --pid 1200 --pid 1300 --pid 1400 --pid 1500
for c in systemd cgroupfs spoof; do
	gen_fixture gen-containers.sh "$c"
	paste "containers $c" - --container '*'
done

hostile_names
printf '%s\0' "${HOSTILE[@]}" >"$TMP/names"
gen_fixture gen-placement.sh hostile
U=/user.slice/user-1000.slice/user@1000.service/app.slice
args=()
for n in "${HOSTILE[@]}"; do args+=(--cgroup "/system.slice/$n"); done
args+=(--cgroup "$U/sshd.service" --cgroup "$U/x\$(touch\${IFS}PWNED)y.scope"
	--cgroup '/system.slice/a\x2db.service')
paste hostile "$TMP/names" "${args[@]}"
run placement "${args[@]}"
expect_out_has "keep it local: no command
      (in a user manager's tree, and not one of its units)" \
	"a name no unit has, in a user manager's tree: no command, and why"

done_testing
