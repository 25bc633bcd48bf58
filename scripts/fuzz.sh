#!/usr/bin/env bash
# Runs the libFuzzer targets of fuzz/ (scenario reading, the impact document, a short simulation, the
# properties of free bodies on scenes drawn from the fuzzer's bytes) and the UI fuzz in headless Chromium,
# each for a given time; `npm test` runs it briefly, `npm run fuzz` as long as asked. A target goes on after
# a broken invariant and keeps the first input of each new kind of finding as
# fuzz/regressions/<target>/finding-<hash>.json; a sanitizer report or a hang stops it and keeps its input
# there too (crash-…, timeout-…). The run fails on any finding. ctest replays that folder, so a kept input
# fails the C++ tests until the bug is fixed: commit it with its fix (there is no list of known, tolerated
# findings).
#   scripts/fuzz.sh [--seconds N] [--seed S] [--parallel P] [--no-build] [--no-ui] [TARGET...]
#     --seconds N   how long each target runs (default 60)
#     --seed S      libFuzzer's and the UI fuzz's seed (default: a new one each run, printed)
#     --parallel P  libFuzzer targets run at once (default: all of them)
#     --no-build    use build/sanitize as it is;  --no-ui  skip the UI fuzz
#     TARGET        scenario, impact, simulation, properties, ui (default: all)
# The corpus each target grows is kept in build/fuzz/<target>/ (seeded from fuzz/corpus/ and the built-in
# scenarios), so that a later run goes on where this one stopped.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
seed=""
parallel=""
build=1
ui=1
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --parallel) parallel="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    --no-ui) ui=0; shift ;;
    scenario|impact|simulation|properties|ui) targets+=("$1"); shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scripts/fuzz.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || { echo "scripts/fuzz.sh: --seconds takes a whole number > 0" >&2; exit 2; }
[ ${#targets[@]} -gt 0 ] || targets=(scenario impact simulation properties ui)
[ -n "$seed" ] || seed=$(( (RANDOM << 15 | RANDOM) + 1 ))

fuzzers=()
run_ui=0
for t in "${targets[@]}"; do
  if [ "$t" = ui ]; then run_ui=$ui; else fuzzers+=("$t"); fi
done
echo "fuzz: ${fuzzers[*]}$([ "$run_ui" -eq 1 ] && echo " ui"), ${seconds} s each, seed $seed"
[ -n "$parallel" ] || parallel=${#fuzzers[@]}

# Per target: the seed corpora, the largest input, and the time after which one input counts as a hang.
seeds_of() {
  case "$1" in
    impact|properties) echo "fuzz/corpus/$1" ;;
    *) echo "fuzz/corpus/scenario web/scenarios" ;;
  esac
}
max_len_of() {
  case "$1" in
    impact) echo 2048 ;;
    properties) echo 256 ;;
    *) echo 8192 ;;
  esac
}
timeout_of() { case "$1" in simulation|properties) echo 60 ;; *) echo 20 ;; esac; }

# One libFuzzer run; its log is build/fuzz/<target>.log, its exit status build/fuzz/<target>.status.
run_fuzzer() {
  local t="$1" status=0
  mkdir -p "build/fuzz/$t" "fuzz/regressions/$t"
  # shellcheck disable=SC2046
  OBLIQUE_FUZZ_KEEP_GOING="fuzz/regressions/$t" \
  build/sanitize/fuzz_"$t" "build/fuzz/$t" $(seeds_of "$t") \
    -dict=fuzz/json.dict -max_len="$(max_len_of "$t")" -timeout="$(timeout_of "$t")" \
    -max_total_time="$seconds" -seed="$seed" -print_final_stats=1 -print_funcs=0 \
    -report_slow_units="$(( $(timeout_of "$t") + 1 ))" -artifact_prefix="fuzz/regressions/$t/" \
    >"build/fuzz/$t.log" 2>&1 || status=$?
  echo "$status" >"build/fuzz/$t.status"
}

# What a run did: executions, coverage, corpus, and the findings it kept or the input it stopped on.
summary() {
  local t="$1" status="$2" log="build/fuzz/$1.log"
  local execs cov corpus findings
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1 || true)
  corpus=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -1 || true)
  findings=$(grep -c 'invariant broken, going on' "$log" || true)
  if [ "$status" -eq 0 ] && [ "$findings" -gt 0 ]; then
    echo "fuzz: $t FOUND $findings kind(s) of finding in $execs executions ($cov, $corpus), kept in fuzz/regressions/$t/:" >&2
    grep 'invariant broken, going on' "$log" | cut -c 1-300 >&2
    status=1
  elif [ "$status" -eq 0 ]; then
    echo "fuzz: $t ok: $execs executions, $cov, $corpus, no finding"
  else
    echo "fuzz: $t FAILED (status $status) after $execs executions; the input is kept in fuzz/regressions/$t/:" >&2
    grep -E 'ERROR|invariant broken|SUMMARY|Test unit written|runtime error' "$log" | head -20 >&2 || true
    echo "fuzz: full log in build/fuzz/$t.log" >&2
  fi
  [ "$status" -eq 0 ]
}

failed=0
if [ ${#fuzzers[@]} -gt 0 ]; then
  [ "$build" -eq 0 ] || bash scripts/build.sh sanitize
  mkdir -p build/fuzz
  # Run them `parallel` at a time, then report each.
  for t in "${fuzzers[@]}"; do
    rm -f "build/fuzz/$t.status"
    while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
    run_fuzzer "$t" &
  done
  wait
  for t in "${fuzzers[@]}"; do
    status=$(cat "build/fuzz/$t.status" 2>/dev/null || echo 1)
    summary "$t" "$status" || failed=1
  done
fi

# The UI fuzz: tests/e2e/ui-fuzz.test.js for the same time, with the same seed.
if [ "$run_ui" -eq 1 ]; then
  OBLIQUE_UI_FUZZ_SECONDS="$seconds" OBLIQUE_UI_FUZZ_SEED="$seed" \
    npx vitest run --config tests/e2e/vitest.config.js tests/e2e/ui-fuzz.test.js || failed=1
fi
exit "$failed"
