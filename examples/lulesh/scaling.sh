#!/bin/sh
# Weak scaling of LULESH's adtrans gradient under MPI (gradient time / primal time) at
# 1, 8 and 27 ranks with the same cube per rank.  Runs unchanged on a cluster:
#   MPIEXEC="srun" RANKS="1 8 27 64" SIZE=30 CYCLES=10 sh examples/lulesh/scaling.sh
# Variables: MPIEXEC (default: mpiexec), PYTHON (default: python3), RANKS, SIZE (-s per rank),
# CYCLES (K), REPEAT.  Each rank count prints one "SCALING ranks=... ratio=..." line.
set -e
here=$(cd "$(dirname "$0")" && pwd)
MPIEXEC=${MPIEXEC:-mpiexec}
PYTHON=${PYTHON:-python3}
RANKS=${RANKS:-"1 8 27"}
SIZE=${SIZE:-5}
CYCLES=${CYCLES:-5}
REPEAT=${REPEAT:-3}
for n in $RANKS; do
    $MPIEXEC -n "$n" "$PYTHON" "$here/scaling.py" -s "$SIZE" -i "$CYCLES" --repeat "$REPEAT" | grep '^SCALING'
done
