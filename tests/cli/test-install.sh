#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `meson install` lays out a Debian-style system under a DESTDIR: the binary,
# both man pages, three completions, the boot unit, the node_exporter
# textfile timer and service, and /etc/numastatctl.conf,
# and a second install keeps a changed numastatctl.conf.  Builds the source
# tree once more with --prefix=/usr in a private build directory.
. "$(dirname "$0")/lib.sh"
: "${SOURCE_ROOT:?run through meson test}"

need meson meson
B=$TMP/build D=$TMP/dest
# -Doptimization=0: the layout is the point, and the compile is most of the cost.
if ! meson setup "$B" "$SOURCE_ROOT" --prefix=/usr -Dtests=false -Doptimization=0 >"$TMP/log" 2>&1 ||
	! meson install -C "$B" --destdir "$D" >"$TMP/install1" 2>&1; then
	not_ok "meson setup and install succeed" "$(tail -20 "$TMP/log" "$TMP/install1" 2>&1)"
	# -Dtextfile_units=false leaves the textfile units out, not the boot unit.
meson configure "$B" -Dtextfile_units=false >"$TMP/log" 2>&1
if meson install -C "$B" --destdir "$TMP/dest-notf" >"$TMP/install4" 2>&1; then
	left=$(cd "$TMP/dest-notf" && find . -name 'numastatctl-textfile.*')
	if [ -z "$left" ]; then ok "-Dtextfile_units=false installs no textfile unit"; else not_ok "-Dtextfile_units=false installs no textfile unit" "$left"; fi
	check "but still the boot unit" test -n "$(cd "$TMP/dest-notf" && find . -name numastatctl.service)"
else
	not_ok "install with the textfile units switched off" "$(tail -20 "$TMP/install4")"
fi

done_testing
	exit
fi
ok "meson setup --prefix=/usr and meson install --destdir succeed"

# expect_installed PATH SOURCE DESC: PATH (under DESTDIR) is a copy of SOURCE.
expect_installed() {
	if [ ! -f "$D/$1" ]; then
		not_ok "$3" "$1 is not installed" "installed: $(cd "$D" && find . -type f | sort)"
	elif [ -n "$2" ] && ! cmp -s "$D/$1" "$2"; then
		not_ok "$3" "$1 differs from $2"
	else
		ok "$3"
	fi
}

expect_installed usr/sbin/numastatctl "" "the binary goes to /usr/sbin"
check "the installed binary is executable" test -x "$D/usr/sbin/numastatctl"
OUT=$("$D/usr/sbin/numastatctl" --version 2>&1)
expect_out_has "numastatctl " "and runs"
expect_installed usr/share/man/man8/numastatctl.8 "" "numastatctl(8) goes to man8"
expect_installed usr/share/man/man5/numastatctl.conf.5 "" "numastatctl.conf(5) goes to man5"
check "the installed page names the real config path" grep -q '/etc/numastatctl' "$D/usr/share/man/man5/numastatctl.conf.5"
check "and the binary's path" grep -q '/usr/sbin/numastatctl' "$D/usr/share/man/man8/numastatctl.8"
bashdir=$(pkg-config --variable=completionsdir bash-completion 2>/dev/null || echo /usr/share/bash-completion/completions)
expect_installed "${bashdir#/}/numastatctl" "$SOURCE_ROOT/completions/bash/numastatctl" \
	"the bash completion goes to bash-completion's completionsdir"
expect_installed usr/share/zsh/vendor-completions/_numastatctl "$SOURCE_ROOT/completions/zsh/_numastatctl" \
	"the zsh completion goes to Debian's vendor-completions"
# What counts is that zsh finds it: its own $fpath, re-rooted at DESTDIR
# (ahead of the real one), and compinit registering the function.
if have zsh zsh; then
	OUT=$(zsh -fc 'D=$1; fpath=(${fpath/#/$D} $fpath); autoload -Uz compinit
		compinit -u -d "$2" && print -r -- "comps: $_comps[numastatctl]" ${^fpath}/_numastatctl(N)' \
		zsh "$D" "$TMP/zcompdump" 2>&1)
	expect_out "comps: _numastatctl $D/usr/share/zsh/vendor-completions/_numastatctl" \
		"zsh's compinit finds _numastatctl in its default \$fpath, from the installed file"
fi
fishdir=$(pkg-config --variable=completionsdir fish 2>/dev/null || echo /usr/share/fish/vendor_completions.d)
expect_installed "${fishdir#/}/numastatctl.fish" "$SOURCE_ROOT/completions/fish/numastatctl.fish" \
	"the fish completion goes to fish's vendor completions"
unit=$(cd "$D" && find . -name numastatctl.service)
case "$unit" in
./usr/lib/systemd/system/numastatctl.service | ./lib/systemd/system/numastatctl.service)
	ok "the boot unit goes to the systemd unit directory" ;;
*) not_ok "the boot unit goes to the systemd unit directory" "found: ${unit:-nothing}" ;;
esac
[ -n "$unit" ] && check "the unit runs the installed binary" grep -q '^ExecStart=/usr/sbin/numastatctl' "$D/$unit"
# The node_exporter textfile timer, so that a fleet only has to enable it.
unitdir=$(dirname "${unit:-./usr/lib/systemd/system/x}")
expect_installed "$unitdir/numastatctl-textfile.timer" "$SOURCE_ROOT/contrib/systemd/numastatctl-textfile.timer" \
	"the textfile timer goes next to the boot unit"
expect_installed "$unitdir/numastatctl-textfile.service" "" "and its service"
check "the textfile service runs the installed binary, with our metric names" \
	grep -qx 'ExecStart=/usr/sbin/numastatctl --quiet stat --textfile /var/lib/prometheus/node-exporter' \
	"$D/$unitdir/numastatctl-textfile.service"
expect_installed usr/lib/numastatctl.conf "$SOURCE_ROOT/numastatctl.conf" \
	"the shipped profiles go to the vendor layer, /usr/lib/numastatctl.conf"
check "numastatctl.conf is mode 0644 (numastatctl refuses a writable one)" \
	test "$(stat -c %a "$D/usr/lib/numastatctl.conf")" = 644
check "and nothing goes to /etc: the administrator's layer" test ! -e "$D/etc"

# The administrator's files in /etc; the next install keeps them and
# replaces the shipped file, which is the package's.
mkdir -p "$D/etc/numastatctl.d"
printf '[numastatctl]\nprofile = throughput\n' >"$D/etc/numastatctl.d/50-local.conf"
cp "$D/etc/numastatctl.d/50-local.conf" "$TMP/local.conf"
echo "; an old copy" >>"$D/usr/lib/numastatctl.conf"
if meson install -C "$B" --destdir "$D" >"$TMP/install2" 2>&1; then
	ok "a second install succeeds"
else
	not_ok "a second install succeeds" "$(tail -20 "$TMP/install2")"
fi
check "and keeps the administrator's drop-in" cmp -s "$D/etc/numastatctl.d/50-local.conf" "$TMP/local.conf"
check "while the shipped profiles are replaced" cmp -s "$D/usr/lib/numastatctl.conf" "$SOURCE_ROOT/numastatctl.conf"
check "and the binary is installed again" grep -q "usr/sbin" "$TMP/install2"
h=$("$D/usr/sbin/numastatctl" status --help)
check "the installed binary reads the three layers of the installed system" \
	test "$(grep -A1 'numastatctl.d/\*.conf in /etc, /run$' <<<"$h" | tr -d ' \n')" = "numastatctl.d/*.confin/etc,/runand/usr/lib"


# "no" switches each completion off.
meson configure "$B" -Dbashcompletiondir=no -Dzshcompletiondir=no -Dfishcompletiondir=no >"$TMP/log" 2>&1
if meson install -C "$B" --destdir "$TMP/dest-nocomp" >"$TMP/install3" 2>&1; then
	left=$(cd "$TMP/dest-nocomp" && find . -path '*completion*' -type f)
	if [ -z "$left" ]; then ok "-D*completiondir=no installs no completion"; else not_ok "-D*completiondir=no installs no completion" "$left"; fi
	check "but still the binary" test -x "$TMP/dest-nocomp/usr/sbin/numastatctl"
else
	not_ok "install with the completions switched off" "$(tail -20 "$TMP/install3")"
fi

# -Dtextfile_units=false leaves the textfile units out, not the boot unit.
meson configure "$B" -Dtextfile_units=false >"$TMP/log" 2>&1
if meson install -C "$B" --destdir "$TMP/dest-notf" >"$TMP/install4" 2>&1; then
	left=$(cd "$TMP/dest-notf" && find . -name 'numastatctl-textfile.*')
	if [ -z "$left" ]; then ok "-Dtextfile_units=false installs no textfile unit"; else not_ok "-Dtextfile_units=false installs no textfile unit" "$left"; fi
	check "but still the boot unit" test -n "$(cd "$TMP/dest-notf" && find . -name numastatctl.service)"
else
	not_ok "install with the textfile units switched off" "$(tail -20 "$TMP/install4")"
fi

# Uninstall removes what was installed and keeps the administrator's
# profiles, as README's "Uninstalling" says.
U=$TMP/dest-uninstall
if meson install -C "$B" --destdir "$U" >"$TMP/install5" 2>&1 &&
	ninja -C "$B" uninstall >"$TMP/uninstall" 2>&1; then
	check "ninja uninstall removes the binary" test ! -e "$U/usr/sbin/numastatctl"
	check "and the man page" test ! -e "$U/usr/share/man/man8/numastatctl.8"
	check "and the shipped profiles" test ! -e "$U/usr/lib/numastatctl.conf"
	check "which README's uninstall note names, with the /etc files it leaves" \
		grep -q '/usr/lib/numastatctl.conf.*/etc/numastatctl.d' <(sed -n '/^### Uninstalling/,/^##/p' "$SOURCE_ROOT/README.md" | tr '\n' ' ')
else
	not_ok "install and uninstall" "$(tail -20 "$TMP/install5" "$TMP/uninstall" 2>&1)"
fi

done_testing
