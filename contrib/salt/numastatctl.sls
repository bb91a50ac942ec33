# SPDX-License-Identifier: GPL-2.0-or-later
# Apply a numastatctl profile with Salt.  `numastatctl apply --check` exits 0
# when the live knobs match the profile, so `unless` skips the apply then and
# the state reports a change only on drift.  A bad profile makes both exit 2:
# the apply runs, fails, and so does the state, with numastatctl's message.
#
# Pillar:  numastatctl: {profile: throughput}
{% set profile = salt['pillar.get']('numastatctl:profile', 'default') %}

numastatctl-apply:
  cmd.run:
    - name: numastatctl apply {{ profile }}
    - unless: numastatctl apply --check {{ profile }}
