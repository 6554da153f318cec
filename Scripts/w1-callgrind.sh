#!/bin/bash
# Instruction counts of the W1 steps of the `strata` engine, repeatable on a noisy machine.
#
# usage: Scripts/w1-callgrind.sh BINARY LABEL [N]
#   BINARY  a release strata-bench (Benchmarks/.build-sb/out/Products/Release-linux/strata-bench);
#           a stripped copy is made (`strip --strip-debug`: valgrind cannot read its debug info)
#   LABEL   names the output folder (/tmp/w1-callgrind/LABEL) and prefixes each line
#   N       objects (default 100000)
# Prints "LABEL step instructions" per step. Each step runs in its own process on one file, in
# W1's order; collection is limited to the StrataEngine method of the step, except point_get,
# which counts the whole process, and open_first_read, which counts the engine's initializer
# (`Realm(configuration:)`) and `readOne` (the step's timed window; the patterns match the mangled
# names of exactly those two functions, which do not nest, so each toggles collection on for its
# own duration). Compare two binaries measured the same way.
set -euo pipefail
BIN=$1; LABEL=$2; N=${3:-100000}
OUT=/tmp/w1-callgrind/$LABEL
rm -rf "$OUT"; mkdir -p "$OUT"
cp "$BIN" "$OUT/strata-bench"; strip --strip-debug "$OUT/strata-bench"
for pair in bulk_insert:bulkInsert small_txn:insertOne point_get:pointGets scan_filter:scanFilter update:updateAges \
  open_first_read:-; do
  step=${pair%%:*}; method=${pair##*:}
  toggle=()
  case $step in
  point_get) ;;
  open_first_read)
    # StrataEngine.init(path:encryptionKey:) (a `fc` initializer symbol) and StrataEngine.readOne(_:into:).
    toggle=("--toggle-collect=*StrataEngineC4path13encryptionKey*fc" "--toggle-collect=*StrataEngineC7readOne_4into*F") ;;
  scan_filter)
    # The method alone: the wider pattern also matched the query closure inside it, whose entry
    # toggled collection off again (the step counted ~0.3M instead of ~5.9M at N = 100,000).
    toggle=("--toggle-collect=*StrataEngineC10scanFilterSi5count_Sd8scoreSumtyKF") ;;
  *) toggle=("--toggle-collect=*StrataEngine*${method}*") ;;
  esac
  valgrind --tool=callgrind --callgrind-out-file="$OUT/$step.out" "${toggle[@]}" \
    "$OUT/strata-bench" w1-step --engine strata --step "$step" --path "$OUT/w.realm" --n "$N" \
    --small-txns 1000 --gets "$N" --updates 20000 > "$OUT/$step.json" 2> "$OUT/$step.err"
  echo "$LABEL $step $(grep -o 'Collected : [0-9]*' "$OUT/$step.err" | awk '{print $3}')"
done
