#!/usr/bin/env bash
# Runs the benchmark several times for each set of flags, the sets taking turns run after
# run (so that a change in the machine's load weighs on every set alike), then prints for
# each set the median of every figure with its smallest and largest value.
#
# Usage, from the repository root after building the benchmark:
#   samples/benchmark/repeat.sh RUNS 'FLAGS' ['FLAGS' ...]
# A set's JVM options (-D..., -X...) go before -jar, the rest after it, for example
#   samples/benchmark/repeat.sh 3 '--scenarios 2 --burst 50000 --app plain' \
#       '--scenarios 2 --burst 50000 --app actuator'
# Runs are written to target/benchmark-repeat (OUT=dir to change it).
set -euo pipefail
if [[ $# -lt 2 || ! $1 =~ ^[1-9][0-9]*$ ]]; then
  sed -n '6,12p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
runs=$1
shift
jar="$(dirname "$0")/target/delayqueue-benchmark.jar"
if [[ ! -f $jar ]]; then
  echo "No $jar: build it first (./mvnw -B -q -pl samples/benchmark -am package -DskipTests)" >&2
  exit 2
fi
out=${OUT:-target/benchmark-repeat}
mkdir -p "$out"
for run in $(seq 1 "$runs"); do
  set_number=0
  for flags in "$@"; do
    set_number=$((set_number + 1))
    jvm=()
    args=()
    for flag in $flags; do
      if [[ $flag == -D* || $flag == -X* ]]; then jvm+=("$flag"); else args+=("$flag"); fi
    done
    dir="$out/set$set_number-run$run"
    echo "run $run of $runs, set $set_number: $flags"
    java "${jvm[@]}" -jar "$jar" "${args[@]}" --out "$dir" > "$dir.log" 2>&1 \
      || { echo "that run failed: see $dir.log" >&2; exit 1; }
  done
done
set_number=0
for flags in "$@"; do
  set_number=$((set_number + 1))
  dirs=()
  for run in $(seq 1 "$runs"); do dirs+=("$out/set$set_number-run$run"); done
  echo
  echo "## $flags"
  echo
  java -jar "$jar" --summarize "${dirs[@]}"
done
