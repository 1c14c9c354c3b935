#!/bin/sh
# A small benchmark for `varmap plan --exec` tests: prints one throughput drawn from a known variability model
# (mean 1000·log2(rsize+1)·√threads, cv 0.02 + 0.1·|sin(threads/3 + log2 rsize)|, normal noise), determined by the
# configuration and the run index, so a rerun of the same run prints the same number.
# Usage: bench-script.sh THREADS RSIZE RUN [FAIL_THREADS]
if [ "$1" = "$4" ]; then
  echo "device busy at threads=$1" >&2
  exit 3
fi
awk -v t="$1" -v r="$2" -v n="$3" 'BEGIN {
  srand(t * 1000003 + r * 1009 + n);
  u1 = 1 - rand(); u2 = rand();
  z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
  l = log(r) / log(2);
  m = 1000 * log(r + 1) / log(2) * sqrt(t);
  s = sin(t / 3 + l); if (s < 0) s = -s;
  printf "%.3f\n", m * (1 + (0.02 + 0.1 * s) * z);
}'
