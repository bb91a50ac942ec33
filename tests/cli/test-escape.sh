#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Text from the outside world never drives the terminal: control characters
# in process names, file names, configuration text and values in a dump are
# printed as \xNN in text (messages, tables, --compat, --cat-config), and
# JSON carries them escaped its own way.  Valid UTF-8 passes unchanged.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/profile-lib.sh"

ESC=$'\033'
# no_raw DESC: neither stdout nor stderr holds a raw control character.
no_raw() {
	if printf '%s%s' "$OUT" "$ERR" | tr -d '\n\t' | LC_ALL=C grep -q '[[:cntrl:]]'; then
		not_ok "$1" "raw control character in:" "$(printf '%s\n%s' "$OUT" "$ERR" | cat -v)"
	else ok "$1"; fi
}

# A process name with an escape sequence and one with a newline (dump).
fixture pid-procs
sed -i "s/^Name:.*/Name:\tev${ESC}[2Jil/" "$ROOT/proc/4242/status"
sed -i 's/^Name:.*/Name:\tcaf\xc3\xa9\xc2\x9bx/' "$ROOT/proc/5151/status"
for view in "" "--compat" "-o PID,COMMAND,TOTAL" "-r -o PID,COMMAND"; do
	# shellcheck disable=SC2086
	run stat --pid 4242 --pid 5151 $view
	expect_rc 0 "stat --pid $view: runs"
	no_raw "stat --pid $view: no raw control character"
	expect_out_has 'ev\x1b[2Jil' "stat --pid $view: ESC shown as \\x1b"
done
run stat --pid 4242
expect_out_has "PID 4242 (ev\\x1b[2Jil)" "the heading line"
run stat --pid 5151 -o PID,COMMAND
no_raw "a C1 control (U+009B, CSI on some terminals) is escaped"
run stat --pid 5151
expect_out_has $'caf\xc3\xa9\\xc2\\x9bx' "valid UTF-8 passes, the C1 control is escaped"
run stat --pid 4242 -J
expect_out_has '"command": "ev\u001b[2Jil"' "JSON escapes the name its own way"
run stat --pid "zz${ESC}[2J"
expect_rc 1 "a name that matches nothing"
no_raw "the message escapes what was typed"
expect_err "numastatctl: stat: no process matches 'zz\\x1b[2J' (by name; 'cmdline:zz\\x1b[2J' looks in the command lines)" "one line"

# File names and configuration text.
fixture sparse3
bad="$TMP/a${ESC}[2Jb"$'\n'"c.conf"
printf '[profile p]\nsummary = s%s[31m red\nvm.numa_stat = 2\n' "$ESC" >"$bad"
trust "$bad"
run --config "$bad" profiles
expect_rc 2 "a configuration with an error"
expect_one_err_line "a newline in the file name does not start a second line"
no_raw "the file name is escaped in the message"
expect_err_has 'a\x1b[2Jb\x0ac.conf:3: [profile p]: vm.numa_stat' "and still names file:line"
printf '[profile p]\nsummary = s%s[31m red\nvm.numa_stat = 1\n' "$ESC" >"$bad"
run --config "$bad" profiles p
expect_rc 0 "profiles NAME"
no_raw "profiles NAME: the summary is escaped"
expect_out_has 'summary = s\x1b[31m red' "profiles NAME: shown as \\x1b"
run --config "$bad" profiles
no_raw "the profiles table escapes the summary"
run --config "$bad" profiles --cat-config
no_raw "--cat-config escapes the file's text and its name"
expect_out_has 'summary = s\x1b[31m red' "--cat-config: shown as \\x1b"
printf '[profile p]\nvm.numa_stat = 1\n' >"$TMP/nul.conf"
printf 'x\0y\n' >>"$TMP/nul.conf"
run --config "$TMP/nul.conf" profiles --cat-config
expect_out_has 'x\x00y' "--cat-config shows a NUL byte as \\x00"

# Values the kernel (here a dump) holds, and values typed.
fixture sparse3
printf '6%s[2J1\n' "$ESC" >"$ROOT/proc/sys/vm/swappiness"
printf '%s]0;owned\007\n' "$ESC" >"$ROOT/proc/sys/vm/zone_reclaim_mode"
run get vm.swappiness vm.zone_reclaim_mode
no_raw "get escapes a value"
expect_out "vm.swappiness = 6\\x1b[2J1
vm.zone_reclaim_mode = \\x1b]0;owned\\x07" "get: as \\xNN"
run status
no_raw "status escapes a value"
run set --dry-run vm.zone_reclaim_mode=1
no_raw "set escapes the old value"
expect_out "vm.zone_reclaim_mode: \\x1b]0;owned\\x07 -> 1 (dry run)" "set: the old value as \\xNN"
run set "vm.numa_stat=1${ESC}[2J"
expect_rc 2 "a value with an escape sequence is refused"
no_raw "and the message escapes it"

# A live process that renamed itself (the kernel shows comm raw in status).
if [ -w /proc/self/comm ]; then
	# It waits in its own open(2) of a FIFO: no child to outlive it.
	mkfifo "$TMP/wait"
	bash -c 'printf "ev\033[2Jil" >/proc/$$/comm; read -r <"$1"' _ "$TMP/wait" \
		</dev/null >/dev/null 2>&1 &
	pid=$!
	at_exit "kill $pid 2>/dev/null"
	for _ in $(seq 1 100); do
		grep -q "ev" "/proc/$pid/comm" 2>/dev/null && break
		sleep 0.05
	done
	run_raw stat --pid "$pid"
	expect_rc 0 "a live process with ESC in its name"
	no_raw "live: no raw control character"
	expect_out_has "PID $pid (ev\\x1b[2Jil)" "live: ESC shown as \\x1b"
	kill "$pid" 2>/dev/null
fi

# systemd escapes a '-' inside a name as \x2d: a table shows the name as
# systemd writes it (libsmartcols' own encoding wrote \x5cx2d), which is
# also what --cgroup takes back.
fixture effect-6.1
unit='systemd-fsck@dev-disk-by\x2duuid-1234.service'
mkdir "$ROOT/sys/fs/cgroup/system.slice/$unit"
cp "$ROOT/sys/fs/cgroup/system.slice/nginx.service/memory.numa_stat" "$ROOT/sys/fs/cgroup/system.slice/$unit/"
run stat --cgroup 'system.slice/*'
expect_out_has "/system.slice/$unit " "a systemd unit's escaped name in the cgroup table, as systemd writes it"
expect_out_lacks 'x5c' "never escaped twice"
run stat --cgroup "$unit"
expect_out_has "cgroup /system.slice/$unit" "and the name from the table finds the unit"
mkdir "$ROOT/sys/fs/cgroup/system.slice/caf"$'\xc3\xa9'"${ESC}.service"
cp "$ROOT/sys/fs/cgroup/system.slice/nginx.service/memory.numa_stat" "$ROOT/sys/fs/cgroup/system.slice/caf"$'\xc3\xa9'"${ESC}.service/"
run stat --cgroup 'system.slice/caf*'
expect_out_has '/system.slice/caf\xc3\xa9\x1b.service ' "UTF-8 and ESC in a cgroup table: \\xNN, columns in bytes"
no_raw "and nothing raw"

done_testing
