#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package (debian/): `dpkg-buildpackage -us -uc -b` builds it from
# a copy of the source tree, lintian finds no error and no warning, the
# package holds every file where Debian's tools look, its Depends and
# Recommends are what the binary's .note.dlopen notes say (dpkg-shlibdeps
# does not read them), and a second build elsewhere, with the same
# SOURCE_DATE_EPOCH (from debian/changelog), gives byte-identical .deb files.
# About two package builds of time: HACKING.md, "The Debian package".
. "$(dirname "$0")/lib.sh"
: "${SOURCE_ROOT:?run through meson test}"

need dpkg-buildpackage dpkg-dev
need dh debhelper
need lintian lintian
need git git
need readelf binutils
need objcopy binutils
[ -d "$SOURCE_ROOT/.git" ] || [ -f "$SOURCE_ROOT/.git" ] || skip_all "not a git checkout: the copy is made of git's files"

# shellcheck source=tests/cli/deb-lib.sh
. "$(dirname "$0")/deb-lib.sh"

# build DIR: the binary packages of the copy in DIR/src, into DIR.
build() {
	copy_source "$1/src"
	(cd "$1/src" && dpkg-buildpackage -us -uc -b) >"$1/log" 2>&1
}

version=$(sed -n '1s/^numastatctl (\([^)]*\)).*/\1/p' "$SOURCE_ROOT/debian/changelog")
arch=$(dpkg --print-architecture)
deb=numastatctl_${version}_$arch.deb
key=$(source_key)
if build "$TMP/a" && [ -f "$TMP/a/$deb" ]; then
	ok "dpkg-buildpackage -us -uc -b builds $deb"
	deb_cache_put "$TMP/a/$deb" "$key"
else
	not_ok "dpkg-buildpackage -us -uc -b builds $deb" "$(tail -30 "$TMP/a/log")"
	done_testing
	exit
fi

# Debian's build flags and the project's agree: not one compiler warning
# (dpkg-buildflags' -D_FORTIFY_SOURCE=2 after meson.build's =3 was one).
OUT=$(grep -E '(: warning: |: note: )' "$TMP/a/log" | sort -u | head -5)
expect_out "" "the package build has no compiler warning"

# lintian: not one error or warning; info and pedantic tags are shown, and
# overrides (debian/numastatctl.lintian-overrides) carry their reasons.
if lintian --fail-on error,warning --info --display-info "$TMP/a/numastatctl_${version}_$arch.changes" >"$TMP/lintian" 2>&1; then
	ok "lintian: no error, no warning"
else
	not_ok "lintian: no error, no warning" "$(cat "$TMP/lintian")"
fi
OUT=$(grep -E '^[EW]: ' "$TMP/lintian")
expect_out "" "lintian prints no E: or W: line"

# The files, where Debian 12's packages put them.
files=$(dpkg-deb -c "$TMP/a/$deb" | awk '{ print $6 }' | sed 's|^\./|/|; s|/$||' | sort)
missing=
for f in /usr/sbin/numastatctl \
	/usr/share/man/man8/numastatctl.8.gz /usr/share/man/man5/numastatctl.conf.5.gz \
	/usr/share/bash-completion/completions/numastatctl \
	/usr/share/zsh/vendor-completions/_numastatctl \
	/usr/share/fish/vendor_completions.d/numastatctl.fish \
	/lib/systemd/system/numastatctl.service \
	/lib/systemd/system/numastatctl-textfile.service \
	/lib/systemd/system/numastatctl-textfile.timer \
	/usr/lib/numastatctl.conf /etc/numastatctl.d \
	/usr/share/doc/numastatctl/copyright /usr/share/doc/numastatctl/NEWS.gz \
	/usr/share/doc/numastatctl/tour.md.gz \
	/usr/share/doc/numastatctl/examples/prometheus/numastatctl.rules.yml \
	/usr/share/doc/numastatctl/examples/prometheus/numastatctl.rules.test.yml \
	/usr/share/doc/numastatctl/examples/prometheus/numastatctl-pods.rules.yml \
	/usr/share/doc/numastatctl/examples/prometheus/numastatctl-pods.rules.test.yml \
	/usr/share/doc/numastatctl/examples/prometheus/numastatctl-migration-reasons.rules.yml \
	/usr/share/doc/numastatctl/examples/prometheus/numastatctl-migration-reasons.rules.test.yml \
	/usr/share/doc/numastatctl/examples/kubernetes/numastatctl-daemonset.yaml; do
	grep -qxF "$f" <<<"$files" || missing="$missing $f"
done
if [ -z "$missing" ]; then ok "the package holds every file in its place"; else not_ok "the package holds every file in its place" "missing:$missing" "has:" "$files"; fi
OUT=$(grep '^/etc/.' <<<"$files")
expect_out "/etc/numastatctl.d" "in /etc only the empty drop-in directory: the administrator's files are theirs"
dpkg-deb -x "$TMP/a/$deb" "$TMP/root"
OUT=$(find "$TMP/root/etc/numastatctl.d" -mindepth 1)
expect_out "" "/etc/numastatctl.d ships empty"
OUT=$(dpkg-deb --ctrl-tarfile "$TMP/a/$deb" | tar -tf - | sed 's|^\./||' | grep -c '^conffiles$')
expect_out 0 "no conffile: the shipped profiles are in /usr/lib, which an upgrade replaces"
# The examples as they are in the tree, to be loaded as they are.
bad=
for f in prometheus/numastatctl.rules.yml prometheus/numastatctl-pods.rules.yml \
	prometheus/numastatctl-migration-reasons.rules.yml \
	kubernetes/numastatctl-daemonset.yaml; do
	cmp -s "$SOURCE_ROOT/contrib/$f" "$TMP/root/usr/share/doc/numastatctl/examples/$f" || bad="$bad $f"
done
OUT=$bad
expect_out "" "the shipped examples are contrib's files, uncompressed"

# The maintainer scripts start no unit: an upgrade (or an install) with the
# boot unit enabled but not started would apply the profile and replace
# the revert point.
dpkg-deb -e "$TMP/a/$deb" "$TMP/control"
OUT=$(cat "$TMP/control/postinst" "$TMP/control/prerm" 2>/dev/null | grep -E 'deb-systemd-invoke.*(start|restart)')
expect_out "" "postinst and prerm start and restart no unit"
OUT=$("$TMP/root/usr/sbin/numastatctl" --version)
expect_out "numastatctl $version" "the packaged binary's --version is debian/changelog's version"

# The dependencies: the notes of the packaged (stripped) binary, each
# soname's package as dpkg knows it here, by the note's priority; against
# what debian/control declares.
if readelf -S "$TMP/root/usr/sbin/numastatctl" | grep -q '\.note\.dlopen'; then
	ok "dh_strip keeps the .note.dlopen section"
else
	not_ok "dh_strip keeps the .note.dlopen section" "$(readelf -S "$TMP/root/usr/sbin/numastatctl")"
fi
objcopy -O binary --only-section=.note.dlopen "$TMP/root/usr/sbin/numastatctl" "$TMP/note.bin"
notes=$(python3 - "$TMP/note.bin" <<'PY'
import json, struct, sys
b = open(sys.argv[1], "rb").read()
o = 0
while o < len(b):
    namesz, descsz, ntype = struct.unpack_from("<III", b, o)
    o += 12 + ((namesz + 3) & ~3)
    desc = b[o:o + descsz]
    o += (descsz + 3) & ~3
    for entry in json.loads(desc.rstrip(b"\0").decode()):
        for soname in entry["soname"]:
            print(entry["priority"], soname)
PY
)
check "the binary has dlopen notes" test -n "$notes"
# field PRIORITY: the control field of a note's priority (systemd's
# dlopen-metadata: required, recommended, suggested).
field() {
	case $1 in
	required) echo Depends ;;
	recommended) echo Recommends ;;
	suggested) echo Suggests ;;
	*) echo "unknown priority $1" ;;
	esac
}
want=$(while read -r prio soname; do
	pkg=$(dpkg -S "*/$soname" 2>/dev/null | sed -n 's/^\([^:]*\):.*/\1/p' | head -1)
	echo "$(field "$prio") ${pkg:-$soname-is-in-no-package}"
done <<<"$notes" | sort)
# The binary stanza's fields, continuation lines joined; ${...} substvars left out.
stanza=$(awk '/^Package: numastatctl$/ { p = 1 } p && /^$/ { exit } p' "$SOURCE_ROOT/debian/control")
OUT=$(for f in Depends Recommends Suggests; do
	printf '%s\n' "$stanza" | awk -v f="$f" '
		$0 ~ "^" f ":" { p = 1; sub("^" f ":", ""); print; next }
		p && /^[ \t]/ { print; next } { p = 0 }' |
		tr ',' '\n' | sed 's/([^)]*)//; s/[[:space:]]//g' | grep -v '^\$' | grep . |
		sed "s/^/$f /"
done | sort)
expect_out "$want" "debian/control's Depends, Recommends and Suggests of libraries are the .note.dlopen notes'"
OUT=$(dpkg-deb -f "$TMP/a/$deb" Depends | tr ',' '\n' | sed 's/([^)]*)//; s/[[:space:]]//g' | grep -v '^libc6$' | sort)
expect_out "$(sed -n 's/^Depends //p' <<<"$want" | sort)" "the built package depends on libc6 and the required libraries only"

# prerm and postrm, run from the tree (#DEBHELPER# is a comment there)
# against a stand-in numastatctl that records its arguments, and postrm's
# purge on a DPKG_ROOT of its own.
mkdir -p "$TMP/stub"
cat >"$TMP/stub/numastatctl" <<'STUB'
#!/bin/sh
echo "$*" >>"$STUB_LOG"
case "$*" in
"trial --prometheus") [ -n "$STUB_TRIAL" ] && printf '%s\n' "# HELP numastatctl_trial_info ..." \
	"numastatctl_trial_info{id=\"$STUB_TRIAL\",by=\"set\",armed=\"timer\",state=\"$STUB_STATE\"} 1" ;;
"revert --trial "*) exit "$STUB_REVERT_RC" ;;
esac
STUB
chmod +x "$TMP/stub/numastatctl"
# expect_calls WANT DESC: the stand-in was called with exactly WANT.
expect_calls() {
	OUT=$CALLS
	expect_out "$@"
}
# maint SCRIPT ARGS...: run the tree's script with the stand-in first on PATH.
maint() {
	local script=$1
	shift
	: >"$TMP/stub.log"
	OUT=$(PATH="$TMP/stub:$PATH" STUB_LOG="$TMP/stub.log" sh "$SOURCE_ROOT/debian/numastatctl.$script" "$@" 2>&1)
	RC=$?
	CALLS=$(<"$TMP/stub.log")
}
TRIAL_ID=1796402699945595976-03d2ad59e97c34eb
export STUB_TRIAL=$TRIAL_ID STUB_STATE=running STUB_REVERT_RC=0
maint prerm remove
expect_rc 0 "prerm remove during a trial"
expect_calls "trial --prometheus
revert --trial $TRIAL_ID" "prerm remove reverts the running trial by its id"
maint prerm upgrade 0.2
expect_calls "" "prerm upgrade leaves the trial to run: its timer calls the new binary"
STUB_STATE=confirmed maint prerm remove
expect_calls "trial --prometheus" "prerm remove after a confirmed trial reverts nothing"
STUB_REVERT_RC=1 maint prerm remove
expect_rc 1 "prerm remove fails when the trial's revert fails: the package stays"
expect_out_has "'numastatctl confirm' keeps its change, 'numastatctl revert --force'" \
	"saying how to end the trial"
STUB_TRIAL='' maint prerm remove
expect_calls "trial --prometheus" "prerm remove with no trial reverts nothing"
DPKG_ROOT=$TMP/elsewhere maint prerm remove
expect_calls "" "prerm remove into another root (DPKG_ROOT) asks nothing of this system"
P=$TMP/purge
mkdir -p "$P/var/lib/numastatctl/snapshots" "$P/run/numastatctl" "$P/var/lib/prometheus/node-exporter"
touch "$P/var/lib/prometheus/node-exporter/numastatctl.prom" \
	"$P/var/lib/prometheus/node-exporter/.numastatctl.prom.00ab12" "$P/var/lib/prometheus/node-exporter/other.prom"
DPKG_ROOT=$P maint postrm remove
check "postrm remove leaves the textfile" test -e "$P/var/lib/prometheus/node-exporter/numastatctl.prom"
DPKG_ROOT=$P maint postrm purge
expect_rc 0 "postrm purge"
OUT=$(cd "$P" && find . -mindepth 1 | sort)
expect_out "./run
./var
./var/lib
./var/lib/prometheus
./var/lib/prometheus/node-exporter
./var/lib/prometheus/node-exporter/other.prom" \
	"postrm purge removes the snapshots, the run directory and the timer's textfile, not another's"

# SOURCE_DATE_EPOCH: the man pages' date is the changelog's.
date=$(date -u -d "$(dpkg-parsechangelog -l "$SOURCE_ROOT/debian/changelog" -S Date)" +%Y-%m-%d)
OUT=$(zcat "$TMP/root/usr/share/man/man8/numastatctl.8.gz" | sed -n 's/^\.TH [^ ]* [^ ]* "\([^"]*\)".*/\1/p')
expect_out "$date" "numastatctl(8) is dated by debian/changelog, not by the build"

# The build path is nowhere in the binary (-ffile-prefix-map).
if grep -qaF "$TMP/a/src" "$TMP/root/usr/sbin/numastatctl"; then
	not_ok "the build directory's path is not in the binary" "$(strings "$TMP/root/usr/sbin/numastatctl" | grep -F "$TMP" | head -5)"
else
	ok "the build directory's path is not in the binary"
fi

# Reproducible: another directory (of another length), another time, the
# same bytes.
if build "$TMP/second-build-dir"; then
	bad=
	for f in "$TMP"/a/*.deb; do
		cmp -s "$f" "$TMP/second-build-dir/${f##*/}" || bad="$bad ${f##*/}"
	done
	if [ -z "$bad" ]; then
		ok "a second build elsewhere gives byte-identical .deb files"
	else
		not_ok "a second build elsewhere gives byte-identical .deb files" "differ:$bad"
	fi
else
	not_ok "the second build succeeds" "$(tail -20 "$TMP/second-build-dir/log")"
fi

done_testing
