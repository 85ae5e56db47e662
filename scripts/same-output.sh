#!/usr/bin/env bash
# Shows that a change kept every output the same: builds REV (a commit, default HEAD)
# in a worktree of its own, builds the working tree, renders every fixture profile in
# every output format with several sets of options with both binaries, and compares
# the bytes. Exits 1 and lists what differs, if anything does.
#
#   scripts/same-output.sh [REV] [--quick] [--old-binary FILE] [--new-binary FILE] [--list FILE]
#
# --quick takes every fifth fixture; --old-binary compares with a binary already built
# (of REV) instead of building REV, --new-binary with one built of the change; --list
# writes every run that differs to FILE. For a restructuring that must not change
# behaviour: run it before committing, against the commit the change started from.
set -euo pipefail

rev=HEAD
quick=0
old_binary=
new_binary=
list=
while (($#)); do
    case "$1" in
        --quick) quick=1 ;;
        --old-binary) old_binary=$2; shift ;;
        --new-binary) new_binary=$2; shift ;;
        --list) list=$2; shift ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) rev=$1 ;;
    esac
    shift
done

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$work/before" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

if [[ -n $old_binary ]]; then
    cp "$old_binary" "$work/old"
else
    echo "building $rev and the working tree…" >&2
    git -C "$root" worktree add --detach -q "$work/before" "$rev"
    (cd "$work/before" && CARGO_TARGET_DIR="$root/target/same-output" cargo build --release -q)
    cp "$root/target/same-output/release/hpgraph" "$work/old"
fi
if [[ -n $new_binary ]]; then
    cp "$new_binary" "$work/new"
else
    (cd "$root" && cargo build --release -q)
    cp "$root/target/release/hpgraph" "$work/new"
fi
new="$work/new"
old="$work/old"

# Every profile a test reads: .hp files, eventlogs and time and allocation reports, plain
# and compressed.
mapfile -t inputs < <(cd "$root" && find fixtures/profiles fixtures/edge fixtures/eventlog \
    fixtures/eventlog-9.6 fixtures/eventlog-9.10 fixtures/corpus-eventlog fixtures/golden \
    fixtures/prof -type f \( -name '*.hp' -o -name '*.eventlog' -o -name '*.hp.gz' \
    -o -name '*.eventlog.zst' -o -name '*.hp.xz' -o -name '*.prof' \) | sort)
if ((quick)); then
    mapfile -t inputs < <(printf '%s\n' "${inputs[@]}" | awk 'NR % 5 == 1')
fi

formats=(ps eps svg pdf png html hp csv json)
# Option sets: hp2ps's defaults, hp2ps's other flags, the modern figure, filters and
# selection on data outputs, and the page's live form is covered by the tests.
optsets=(
    ""
    "-c -m5 -i- -b"
    "-d -t2 -s -y -g"
    "--style modern --palette okabe-ito --stable-colours --size 12cmx8cm --key below --binary-units"
    "--include . --exclude ^MAIN --from 0.01 --heap-lines --title T"
    "--outline-text --exact --dpi 72 -e 5in"
)

compared=0
differ=0
fail_list="$work/differ.txt"
: > "$fail_list"
run() { # binary out-dir input opts...
    local bin=$1 dir=$2 input=$3; shift 3
    (cd "$dir" && "$bin" "$@" "$root/$input" > stdout 2> stderr; echo $? > status) || true
}
n=0
for input in "${inputs[@]}"; do
    n=$((n + 1))
    printf '\r%d/%d %s\033[K' "$n" "${#inputs[@]}" "$input" >&2
    for k in "${!optsets[@]}"; do
        read -ra opts <<< "${optsets[$k]}"
        jobs=()
        for f in "${formats[@]}"; do jobs+=("-o out.$f"); done
        jobs+=("--summary" "--summary=json")
        [[ $input == *.eventlog* ]] && jobs+=("--stats" "--stats=json")
        for job in "${jobs[@]}"; do
            read -ra j <<< "$job"
            for side in old new; do
                rm -rf "$work/$side.d" && mkdir "$work/$side.d"
                bin=$old; [[ $side == new ]] && bin=$new
                run "$bin" "$work/$side.d" "$input" "${opts[@]}" "${j[@]}"
            done
            compared=$((compared + 1))
            if ! diff -rq "$work/old.d" "$work/new.d" > /dev/null; then
                differ=$((differ + 1))
                echo "$input [${optsets[$k]}] $job" >> "$fail_list"
            fi
        done
    done
done
printf '\r\033[K' >&2
echo "$compared runs compared (${#inputs[@]} profiles x ${#optsets[@]} option sets x every output; --stats of the eventlogs): $differ differ"
if ((differ)); then
    # By output (a change to the page's script differs in every page), then up to ten of each.
    awk '{print $NF}' "$fail_list" | sort | uniq -c | sed 's/^/  /'
    for kind in $(awk '{print $NF}' "$fail_list" | sort -u); do
        awk -v k="$kind" '$NF == k && n++ < 10 { print "  differs: " $0 }' "$fail_list"
    done
    [[ -n $list ]] && cp "$fail_list" "$list"
    exit 1
fi
