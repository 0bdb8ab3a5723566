#!/bin/bash
# Runs a command and prints its wall time and the whole machine's busy CPU
# seconds meanwhile (user + nice + system + irq + softirq, from /proc/stat):
# for a browser suite, whose CPU is spent in Chromium's many processes, the
# one figure that counts them all. Run it with nothing else busy.
#   tests/browser/tools/cpu-run.sh node_modules/.bin/playwright test table first_visit board
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8}' /proc/stat; }
ticks=$(getconf CLK_TCK)
b0=$(busy); t0=$(date +%s.%N)
"$@"; rc=$?
b1=$(busy); t1=$(date +%s.%N)
echo "WALL $(echo "$t1 - $t0" | bc) s  CPU $(echo "($b1 - $b0) / $ticks" | bc -l | cut -c1-7) s  rc=$rc"
exit $rc
