#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The configuration's layers as the built binary has them compiled in: the
# shipped numastatctl.conf under the vendor directory, /run over it, /etc
# over both, by name; drop-ins of every layer in one name order; provenance
# in `profiles` and --cat-config; the trust rules in every layer.  The three
# directories are overlaid with empty upper directories in a private mount
# namespace, so the host's own files are never touched.
. "$(dirname "$0")/lib.sh"
: "${SOURCE_ROOT:?run through meson test}"

[ "$(id -u)" = 0 ] || skip_all "needs root: mount namespaces and the trust checks"
unshare -m true 2>/dev/null || skip_all "no mount namespaces here (unshare -m failed)"

# The three directories, from a command's --help: "numastatctl.d/*.conf in ETC, RUN" and "and VENDOR".
help=$("$NUMASTATCTL" status --help)
ETC=$(sed -n 's|^ *numastatctl\.d/\*\.conf in \([^ ]*\), \([^ ]*\)$|\1|p' <<<"$help")
RUNL=$(sed -n 's|^ *numastatctl\.d/\*\.conf in \([^ ]*\), \([^ ]*\)$|\2|p' <<<"$help")
VENDOR=$(sed -n 's|^ *and \(/[^ ]*\)$|\1|p' <<<"$help")
check "--help names the three layers ($ETC, $RUNL, $VENDOR)" test -n "$ETC" -a -n "$RUNL" -a -n "$VENDOR"
for d in "$ETC" "$RUNL" "$VENDOR"; do
	[ -d "$d" ] || skip_all "$d does not exist here: nothing to overlay"
done

umask 022
L=$TMP/layers
# reset: empty upper layers for /etc, /run and the vendor directory.
reset() {
	rm -rf "$L"
	mkdir -p "$L"/{etc,run,vendor}/numastatctl.d "$L"/work/{etc,run,vendor}
}
# in_layers ARGS...: the binary on sparse3 with the three layers overlaid.
in_layers() {
	unshare -m bash -c '
		L=$1; shift
		for pair in "etc=$1" "run=$2" "vendor=$3"; do
			mount -t overlay overlay -o "lowerdir=${pair#*=},upperdir=$L/${pair%%=*},workdir=$L/work/${pair%%=*}" \
				"${pair#*=}" || exit 99
		done
		shift 3
		exec "$@"' _ "$L" "$ETC" "$RUNL" "$VENDOR" \
		"$NUMASTATCTL" --sysroot "$ROOT" --state-dir "$STATE" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	RC=$? OUT=$(<"$TMP/out") ERR=$(<"$TMP/err")
	[ "$RC" != 99 ] || skip_all "overlayfs cannot be mounted here: $ERR"
}

fixture sparse3
reset
# No file in any layer (a build run in place, nothing installed): profiles
# and status say so, and where they looked, instead of an empty list.
if compgen -G "$ETC/numastatctl*" >/dev/null || compgen -G "$RUNL/numastatctl*" >/dev/null ||
	compgen -G "$VENDOR/numastatctl*" >/dev/null; then
	ok "# SKIP this host has a configuration in $ETC, $RUNL or $VENDOR"
else
	none="no configuration file: looked for numastatctl.conf and numastatctl.d/*.conf in $ETC, $RUNL and $VENDOR"
	in_layers profiles
	expect_rc 0 "profiles without any configuration file exits 0"
	expect_out "$none" "and says that no configuration file exists, and where it looked"
	in_layers status
	expect_out_has "profile: none configured ($none)" "status says so too"
	in_layers -J profiles
	expect_out '{
   "profiles": []
}' "profiles -J: an empty array"
fi
install -m 0644 "$SOURCE_ROOT/numastatctl.conf" "$L/vendor/numastatctl.conf"
in_layers profiles
expect_rc 0 "the shipped file alone is a configuration"
expect_out_has "$VENDOR/numastatctl.conf:" "profiles names the vendor layer as each profile's origin"
check "the default profile comes from it" grep -Eq '^default +yes ' <<<"$OUT"

# A drop-in in /etc changes the shipped profiles key by key.
printf '[numastatctl]\nprofile = throughput\n[profile throughput]\nvm.min_slab_ratio = 9\n' \
	>"$L/etc/numastatctl.d/50-local.conf"
in_layers profiles throughput
expect_rc 0 "an /etc drop-in on the shipped file"
expect_out_has "vm.min_slab_ratio = 9" "its value is in force"
expect_out_has "$ETC/numastatctl.d/50-local.conf:4, overrides 5 at $VENDOR/numastatctl.conf:" \
	"with its file:line and the shipped value it overrides"
in_layers profiles
check "the drop-in's [numastatctl] profile is the default now" grep -Eq '^throughput +yes ' <<<"$OUT"

# A bad drop-in: status names its file:line and the problem.
printf '[profile throughput]\nvm.min_slab_ratio = lots\n' >"$L/etc/numastatctl.d/70-bad.conf"
in_layers status
expect_err_has "warning: the configuration has a problem: $ETC/numastatctl.d/70-bad.conf:2: [profile throughput]: vm.min_slab_ratio: invalid value 'lots'" \
	"status with a bad drop-in names the drop-in's file:line and the problem"
rm "$L/etc/numastatctl.d/70-bad.conf"

# /run: the same name is overridden by /etc's; another name is read in name order.
printf '[profile throughput]\nvm.min_slab_ratio = 11\n' >"$L/run/numastatctl.d/50-local.conf"
printf '[profile throughput]\nvm.min_unmapped_ratio = 3\n' >"$L/run/numastatctl.d/60-runtime.conf"
in_layers profiles throughput
expect_out_has "vm.min_slab_ratio = 9" "/etc's 50-local.conf overrides /run's of the same name"
expect_out_has "vm.min_unmapped_ratio = 3                ; $RUNL/numastatctl.d/60-runtime.conf:2" \
	"/run's 60-runtime.conf comes after 50-local.conf, whatever the layer"
in_layers profiles --cat-config
expect_rc 0 "--cat-config"
check "--cat-config prints the files in the order they are read" test \
	"$(grep '^# /' <<<"$OUT")" = "# $VENDOR/numastatctl.conf
# $ETC/numastatctl.d/50-local.conf
# $RUNL/numastatctl.d/60-runtime.conf"
check "and what each one overrides" test "$(grep -A1 -x "# $ETC/numastatctl.d/50-local.conf" <<<"$OUT")" = \
	"# $ETC/numastatctl.d/50-local.conf
# overrides $RUNL/numastatctl.d/50-local.conf"
expect_out_lacks "vm.min_slab_ratio = 11" "an overridden file is not printed"

# /etc/numastatctl.conf overrides the shipped file whole.
printf '[numastatctl]\nprofile = mine\n[profile mine]\nvm.numa_stat = 1\n' >"$L/etc/numastatctl.conf"
rm "$L/etc/numastatctl.d/50-local.conf" "$L/run/numastatctl.d/60-runtime.conf"
printf '[profile mine]\nvm.min_slab_ratio = 11\n' >"$L/run/numastatctl.d/50-local.conf"
in_layers profiles
expect_rc 0 "an /etc/numastatctl.conf"
check "its profiles, and the drop-ins', only: the shipped ones are gone" \
	test "$(awk 'NR > 1 { print $1 }' <<<"$OUT" | paste -sd' ')" = "mine"
in_layers profiles --cat-config
check "--cat-config says which shipped file it overrides" \
	grep -qx "# overrides $VENDOR/numastatctl.conf" <<<"$OUT"

# Trust: a /run layer others can write is refused as /etc's is.
reset
install -m 0644 "$SOURCE_ROOT/numastatctl.conf" "$L/vendor/numastatctl.conf"
chmod 0777 "$L/run/numastatctl.d"
in_layers profiles
expect_rc 2 "a world-writable /run/numastatctl.d is refused as root"
expect_err_has "$RUNL/numastatctl.d: writable by group or others: refusing it (run 'chmod go-w $RUNL/numastatctl.d')" \
	"naming the directory and the fix"
chmod 0755 "$L/run/numastatctl.d"
install -m 0666 /dev/null "$L/vendor/numastatctl.d/10-x.conf"
in_layers profiles
expect_rc 2 "a world-writable shipped drop-in is refused"
install -m 0644 /dev/null "$L/etc/numastatctl.d/10-x.conf"
in_layers profiles
expect_rc 0 "once /etc overrides it by name, it is never read, so never refused"

done_testing
