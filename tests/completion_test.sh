#!/usr/bin/env bash
# The generated bash completion offers what the program accepts: source it,
# set COMP_WORDS and COMP_CWORD as bash does, call the function and compare
# COMPREPLY with what `idemlab list --json` and `--help` say.
set -u
B="${IDEMLAB:?set IDEMLAB to the idemlab binary}"
SCRIPT="${COMPLETION:?set COMPLETION to the generated completion script}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

"$B" completion bash | cmp -s - "$SCRIPT" && ok || bad "$SCRIPT is not what idemlab completion bash prints"
# shellcheck source=/dev/null
source "$SCRIPT"
[ "$(complete -p idemlab)" = "complete -F _idemlab idemlab" ] && ok || bad "no completion for idemlab"

# offers WORDS...: the completion of the command line WORDS, one per line,
# sorted; the word under the cursor is the last one, or the one at $CWORD.
offers() {
    COMP_WORDS=("$@")
    COMP_CWORD=${CWORD:-$((${#COMP_WORDS[@]} - 1))}
    COMPREPLY=()
    _idemlab
    printf '%s\n' "${COMPREPLY[@]}" | sort
}
# expect "what" "wanted words" WORDS...
expect() {
    local what="$1" want
    want=$(printf '%s\n' $2 | sort)
    shift 2
    local got
    got=$(offers "$@")
    [ "$got" = "$want" ] && ok || bad "$what: got [$(echo $got)], want [$(echo $want)]"
}

"$B" list --json >"$tmp/list.json"
q() { python3 -c "import json, sys; d = json.load(open('$tmp/list.json')); print(' '.join($1))"; }

expect "subcommands" "list run experiment lesson challenge check replay export shot help --help --version" idemlab ""
expect "subcommands starting with c" "challenge check" idemlab c
expect "challenge actions" "list show start" idemlab challenge ""
"$B" challenge list --json >"$tmp/challenges.json"
challenges=$(python3 -c "import json; print(' '.join(c['id'] for c in json.load(open('$tmp/challenges.json'))['challenges']))")
expect "challenge ids after show" "$challenges" idemlab challenge show ""
expect "challenge ids after --challenge" "$challenges" idemlab check h.js --challenge ""
expect "subcommands starting with r" "run replay" idemlab r
expect "scenario ids" "$(q '[s["id"] for s in d["scenarios"]]')" idemlab run --scenario ""
expect "scenario ids after --scenario=" "$(q '[s["id"] for s in d["scenarios"]]')" idemlab run --scenario = ""
expect "variants of order-create" \
    "$(q '[v["id"] for s in d["scenarios"] if s["id"] == "order-create" for v in s["variants"]]')" \
    idemlab run --scenario order-create --variant ""
expect "variants of payment-callback in shot" \
    "$(q '[v["id"] for s in d["scenarios"] if s["id"] == "payment-callback" for v in s["variants"]]')" \
    idemlab shot --view state --scenario payment-callback --variant ""
expect "variants of order-create starting with dedup-n" "dedup-no-expiry dedup-no-recheck" \
    idemlab run --scenario order-create --variant dedup-n
expect "crash points of order-create/unique-key" "none $(q '[" ".join(v["crash_points"]) for s in d["scenarios"] if s["id"] == "order-create" for v in s["variants"] if v["id"] == "unique-key"]')" \
    idemlab run --scenario order-create --variant unique-key --crash ""
CWORD=3 expect "crash points of the recommended variant" "none $(q '[" ".join(v["crash_points"]) for s in d["scenarios"] if s["id"] == "payment-callback" for v in s["variants"] if v["recommended"]]')" \
    idemlab run --crash "" --scenario payment-callback
expect "timings" "$(q 'd["timings"]')" idemlab run --scenario order-create --timing ""
expect "sources of mq-consume" "$(q '[" ".join(s["sources"]) for s in d["scenarios"] if s["id"] == "mq-consume"]')" \
    idemlab run --scenario mq-consume --source ""
expect "sources without a scenario" "$(q 'd["sources"]')" idemlab run --source ""
expect "params of order-create" "$(q '[p["key"] + "=" for s in d["scenarios"] if s["id"] == "order-create" for p in s["params"]]')" \
    idemlab run --scenario order-create --param ""
expect "verdicts" "$(q 'd["verdicts"]')" idemlab run --scenario order-create --expect ""
expect "export formats" "chrome csv history html mermaid plantuml shiviz xlsx" idemlab export t.json --format ""
expect "a number has no completion" "" idemlab run --scenario order-create --duplicates ""
expect "languages" "en zh" idemlab export t.json --lang ""

# Live mode: the backends, the levels of the chosen backend (SQLite has one).
expect "backends" "mariadb postgres sqlite" idemlab run --scenario order-create --backend ""
expect "backends of experiment" "mariadb postgres sqlite" idemlab experiment --backend ""
# Redis: the lab's own or none (a user's server is a URL to type).
expect "redis" "off private" idemlab run --scenario ttl-window --redis ""
expect "redis of replay" "off private" idemlab replay --redis ""
expect "isolation levels on postgres" "read-committed repeatable-read serializable" \
    idemlab run --backend postgres --isolation ""
expect "isolation levels on sqlite" "serializable" idemlab run --backend sqlite --isolation ""
expect "isolation levels of shot on mariadb" "read-committed repeatable-read serializable" \
    idemlab shot --backend=mariadb --isolation ""
# experiment --variants a,b,...: the scenario's variants, then the rest after each comma.
expect "variants to compare" \
    "$(q '[v["id"] for s in d["scenarios"] if s["id"] == "order-create" for v in s["variants"]]')" \
    idemlab experiment --scenario order-create --variants ""
expect "the next variant after a comma" "none,unique-key" \
    idemlab experiment --scenario order-create --variants none,uni
expect "a listed variant is not offered again" "" \
    idemlab experiment --scenario order-create --variants none,unique-key,non
expect "themes" "dark light" idemlab shot --theme ""
expect "views alone" "compare sequence state tables" idemlab shot --alone ""
expect "lessons to shoot" "$(printf '%s\n' $("$B" lesson list --json | python3 -c "import json, sys; print(' '.join(l['id'] for l in json.load(sys.stdin)['lessons']))") | grep '^gap')" \
    idemlab shot --lesson gap

# Every option of every command that takes a value offers something, unless
# its value is a number, a URL or free text: a walk over what --help lists.
free='^(N|MS|K|R|URL|k=v)$'
for c in list run experiment replay export shot "lesson export"; do
    "$B" $c --help 2>/dev/null | grep -oE '^  (-\w, )?--[a-z-]+ <[^>]+>' |
        sed -E 's/^.*(--[a-z-]+) <([^>]+)>$/\1 \2/' >"$tmp/values"
    while read -r option value; do
        case "$c $option" in
            # chosen among the scenario's: needs --scenario, tried below
            *" --param") continue ;;
        esac
        [[ $value =~ $free ]] && continue
        words=(idemlab $c)
        [ "$c" = "lesson export" ] && words=(idemlab lesson export unique-key)
        got=$(offers "${words[@]}" --scenario order-create "$option" "")
        [ -n "$got" ] && ok || bad "$c $option <$value> offers nothing"
    done <"$tmp/values"
done
expect "params after --scenario" "$(q '[p["key"] + "=" for s in d["scenarios"] if s["id"] == "order-create" for p in s["params"]]')" \
    idemlab shot --scenario order-create --param ""

# Lessons: the action, then a bundled lesson's id (or a file); lesson export's
# own options and values.
"$B" lesson list --json >"$tmp/lessons.json"
ids=$(python3 -c "import json; print(' '.join(l['id'] for l in json.load(open('$tmp/lessons.json'))['lessons']))")
expect "lesson actions" "list check export" idemlab lesson ""
expect "lesson ids to export" "$(printf '%s\n' $ids | grep '^unique')" idemlab lesson export unique
expect "lesson ids to check" "$(printf '%s\n' $ids | grep '^desig')" idemlab lesson check desig
"$B" lesson export --help >"$tmp/help" 2>/dev/null
expect "options of lesson export" "$(grep -oE '^  (-\w, )?--[a-z-]+' "$tmp/help" | grep -oE -- '--[a-z-]+$')" \
    idemlab lesson export unique-key --
expect "lesson export formats" "html" idemlab lesson export unique-key --format ""
expect "lesson export languages" "en zh" idemlab lesson export unique-key --lang ""

# Options: every one that --help lists, and nothing else.
for c in list run experiment lesson replay export shot; do
    "$B" $c --help >"$tmp/help" 2>/dev/null
    expect "options of $c" "$(grep -oE '^  (-\w, )?--[a-z-]+' "$tmp/help" | grep -oE -- '--[a-z-]+$')" idemlab $c --
done
expect "run options starting with --crash" "--crash --crash-attempt" idemlab run --scenario order-create --crash

# Files: traces to replay and export, files for --db, --trace and --out.
mkdir "$tmp/files" && touch "$tmp/files/trace.json" "$tmp/files/other.txt"
expect "replay a trace" "$tmp/files/trace.json" idemlab replay "$tmp/files/tr"
expect "--trace FILE" "$tmp/files/other.txt" idemlab run --scenario order-create --trace "$tmp/files/o"
expect "shot --out FILE" "$tmp/files/other.txt $tmp/files/trace.json" idemlab shot --out "$tmp/files/"
expect "lesson export --out FILE" "$tmp/files/other.txt" idemlab lesson export unique-key --out "$tmp/files/o"
expect "a lesson file to export" "$tmp/files/trace.json" idemlab lesson export "$tmp/files/t"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
