#!/bin/bash
. "$(dirname "$0")/lib.sh"
ok "placeholder until written"
done_testing
