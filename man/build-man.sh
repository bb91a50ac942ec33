#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# build-man.sh SCDOC PAGE.scd KNOBS.scd ADVICE.scd COLUMNS.scd VIEWS.scd SYSCONFDIR STATE_DIR RUN_DIR
#              SBINDIR VERSION RUNTIMECONFDIR VENDORCONFDIR JSON.scd JSON_SCHEMA_DIR
# Fills in the configured paths, puts the generated KNOBS and ADVICE RULES
# sections, the stat column list, the views' column lists and the JSON
# OUTPUT parts (from schemas/) where the page has a line "@KNOBS@",
# "@ADVICE@", "@STAT_COLUMNS@", "@VIEW_COLUMNS@" or "@JSON_PARTS@", and
# runs scdoc; the page goes to stdout.
# scdoc starts every paragraph, section and list item with .P, also where
# nothing follows or a heading already breaks the line; mandoc -T lint
# rightly calls those empty, so the filter at the end drops them.  It also
# folds long text lines, which scdoc's markup makes longer than the source.
# SYNOPSIS gets a hanging indent (.in, .ti): scdoc has none.
set -eu
scdoc=$1 page=$2 knobs=$3 advice=$4 columns=$5 views=$6 sysconfdir=$7 statedir=$8 rundir=$9
sbindir=${10} version=${11} runtimeconfdir=${12} vendorconfdir=${13} json=${14} jsondir=${15}
# scdoc's roff in a file of its own: in a pipe its failure (a syntax error
# stops it halfway) would pass unseen and install half a page.
roff=$(mktemp)
trap 'rm -f "$roff"' EXIT

sed -e "s|@SYSCONFDIR@|$sysconfdir|g" \
	-e "s|@RUNTIMECONFDIR@|$runtimeconfdir|g" \
	-e "s|@VENDORCONFDIR@|$vendorconfdir|g" \
	-e "s|@STATE_DIR@|$statedir|g" \
	-e "s|@RUN_DIR@|$rundir|g" \
	-e "s|@SBINDIR@|$sbindir|g" \
	-e "s|@VERSION@|$version|g" \
	-e "s|@JSON_SCHEMA_DIR@|$jsondir|g" \
	-e "/^@KNOBS@\$/{
r $knobs
d
}" -e "/^@ADVICE@\$/{
r $advice
d
}" -e "/^@STAT_COLUMNS@\$/{
r $columns
d
}" -e "/^@VIEW_COLUMNS@\$/{
r $views
d
}" -e "/^@JSON_PARTS@\$/{
r $json
d
}" "$page" | "$scdoc" >"$roff" || { echo "build-man.sh: scdoc failed on $page" >&2; exit 1; }
awk '
	# Hold each .P until the next line shows whether it starts any text.
	/^\.P$/ { if (!after_break) held = 1; next }
	# The paragraph break then comes after the indented block ends.
	/^\.RE$/ { print; next }
	/^\.(SH|SS|TH)( |$)/ { held = 0 }
	held { print ".P"; held = 0 }
	/^\.nf/ { nofill = 1 }
	/^\.fi/ { nofill = 0 }
	{ after_break = /^\.(SH|SS|TH)( |$)/ }
	# SYNOPSIS: no word hyphenated or broken at its own hyphens (\% first),
	# so an option copied from the page is whole (--no-revert-point).
	/^\.SH / { synopsis = /^\.SH SYNOPSIS/ }
	synopsis && !/^[.\047]/ { gsub(/(^| )/, "&\\%") }
	nofill || /^[.\047]/ || length($0) <= 80 { print; next }
	# Filled text: a newline is a space to roff, so fold long lines at
	# spaces, never before a word that roff would read as a request.
	{
		n = split($0, w, " ")
		line = w[1]
		for (i = 2; i <= n; i++) {
			if (length(line) + 1 + length(w[i]) > 80 && w[i] !~ /^[.\047]/ &&
			    line !~ /\\$/) {
				print line
				line = w[i]
			} else
				line = line " " w[i]
		}
		print line
	}
' "$roff" | awk '
	# SYNOPSIS: each form a hanging paragraph, its continuation lines
	# indented under the command, so that the next form stands out.
	/^\.SH / && syn { print ".in -4n"; syn = 0 }
	{ print }
	/^\.SH SYNOPSIS/ { syn = 1; print ".in +4n"; print ".ti -4n" }
	# (.P sets the indent back to the margin.)
	syn && /^\.P$/ { print ".in +4n" }
	syn && /^\.(br|P)$/ { print ".ti -4n" }
'
