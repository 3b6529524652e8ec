#!/usr/bin/env bash
# End-to-end checks of the dinghy program: exit codes, messages, hashes.
# usage: tests/test_cli.sh ./dinghy
set -u
bin=${1:-./dinghy}
source "$(dirname "$0")/cli_lib.sh"

hash_of() { "$bin" --headless "$@" 2>/dev/null | sed -n 's/.*hash \([0-9a-f]\{16\}\).*/\1/p'; }

# The issue's determinism check: same hash for 1, 2, 3 threads and on a rerun.
grid=(--steps 120 --set scene.name=grid --set scene.count=16) # 2 s, as in the README
h1=$(hash_of "${grid[@]}" --threads 1)
h2=$(hash_of "${grid[@]}" --threads 2)
h3=$(hash_of "${grid[@]}" --threads 3)
h1b=$(hash_of "${grid[@]}" --threads 1)
if [[ -n $h1 && $h1 == "$h2" && $h1 == "$h3" && $h1 == "$h1b" ]]; then ok "grid 16 hash $h1 for 1, 2, 3 threads and rerun"
else bad "grid 16 hashes differ: 1:$h1 2:$h2 3:$h3 rerun:$h1b"; fi

expect "summary line" 0 '^steps 10 +simulated 0.167 s.*hash [0-9a-f]{16}' -- --headless --steps 10 --set scene.name=single
expect "unknown key exits 2 with a suggestion" 2 "unknown key 'dinghy.stifness'; did you mean 'dinghy.stiffness'" -- --headless --set dinghy.stifness=1
expect "out of range exits 2 with the range" 2 "sim.dt = 5 is out of range; allowed: 1e-06 to 0.1 s" -- --headless --set sim.dt=5
expect "bad number exits 2" 2 "dinghy.mass = 'heavy' is not a number" -- --headless --set dinghy.mass=heavy
expect "bad flag exits 2" 2 "unknown option '--fast'" -- --fast
expect "bad --steps exits 2" 2 "^dinghy: --steps 'x'" -- --headless --steps x
expect "missing config file exits 2" 2 "nope.ini: cannot open config file" -- --headless --config "$tmp/nope.ini"
printf '[dinghy]\nstiffness = 800\nsegments = 31.5\n' >"$tmp/bad.ini"
expect "bad config line named with file:line" 2 "bad.ini:3: dinghy.segments = '31.5' is not a whole number" -- --headless --config "$tmp/bad.ini"
expect "dt above the bound with fixed substeps warns" 3 "warning: sim.dt = 0.005 s in sim.substeps = 1 is above the explicit stability bound" -- --headless --steps 3000 --set scene.name=single --set sim.dt=0.005 --set sim.substeps=1
expect "dt above the bound with automatic substeps runs" 0 "substeps" -- --headless --steps 300 --set scene.name=single --set sim.dt=0.005 --dump -
expect "blow-up exits 3 naming step, ring and cause" 3 "blew up at step [0-9]+ .*ring 0 .*likely cause: the time step 0.005 s is above the stability bound" -- --headless --steps 3000 --set scene.name=single --set sim.dt=0.005 --set sim.substeps=1
# A run that ends with exit 0 has every ring whole; else it is a blow-up.
expect "soft heavy rings tear: exit 3 with the cause" 3 "ring [0-9]+ is (torn: a skin edge is .* times its rest length.*raise the spring stiffness|turned inside out or crushed.*the springs are too soft)" -- --headless --steps 3000 --set scene.name=lake --set scene.count=4 --set dinghy.skin=springs --set dinghy.stiffness=25 --set dinghy.mass=170
# (the seed models: with skin contact the tube, blown up across its hole, is held by its own
# self-contact at 1.99 times its rest volume, just under the balloon bound of 2)
expect "a constant inflation too strong for the springs: exit 3" 3 "ring 0 is (torn|blown up like a balloon|turned inside out or crushed)" -- --headless --steps 300 --set scene.name=single --set dinghy.skin=springs --set dinghy.inflation=constant --set dinghy.pressure=3000 --set dinghy.contact=centreline
# dinghy.youngs_modulus: every allowed value runs or is refused before the run
expect "the stiffest skin allowed (1e10 Pa) runs in a pile" 0 "^steps 10 .*rings 4 " -- --headless --steps 10 --threads 1 --set scene.name=pile --set scene.count=4 --set dinghy.youngs_modulus=1e10
expect "the softest skin allowed (1e5 Pa) at the default gauge is refused before the run" 2 "^dinghy: --set dinghy.youngs_modulus=1e5: .*the skin is too soft for its gauge" -- --headless --set scene.name=pile --set dinghy.youngs_modulus=1e5
expect "springs of 0 N/m can never hold a ring" 2 "dinghy.stiffness = 0 is out of range; allowed: 1 to 1e\+09 N/m" -- --headless --set dinghy.stiffness=0
: >"$tmp/empty.ini"
expect "a river too short for its rocks names the length it was given" 2 "^dinghy: --set river.length=30: river.rocks = 6, river.length = 30: rocks = 6 is outside \\[0, 5\\]" -- --headless --config "$tmp/empty.ini" --set river.length=30
expect "help lists every key" 0 "dinghy.repulsion_exponent" -- --help

# --dump: JSON with the documented fields; '-' writes to stdout.
"$bin" --headless --steps 100 --set scene.name=pair --dump "$tmp/d.json" >/dev/null 2>&1
if grep -q '"hash": "[0-9a-f]\{16\}"' "$tmp/d.json" && grep -q '"momentum": \[' "$tmp/d.json" \
   && grep -q '"kinetic_energy"' "$tmp/d.json" && [[ $(grep -c '"com"' "$tmp/d.json") -eq 2 ]] \
   && grep -q '"mean_depth"' "$tmp/d.json" && grep -q '"volume"' "$tmp/d.json" \
   && grep -q '"substeps": 18,' "$tmp/d.json" && [[ $(grep -c '"submerged_volume": [0-9.e-]*, ' "$tmp/d.json") -eq 2 ]] \
   && [[ $(grep -c '"rest_volume": 0.95' "$tmp/d.json") -eq 2 ]] && [[ $(grep -c '"pressure": 10[0-9.]*, ' "$tmp/d.json") -eq 2 ]] \
   && "$bin" --headless --steps 1 --set scene.name=single --set dinghy.inflation=constant --dump - 2>/dev/null \
      | grep -q '"pressure": null'; then ok "dump file has the documented fields"
else bad "dump file: $(head -c 300 "$tmp/d.json")"; fi
out=$("$bin" --headless --steps 5 --set scene.name=single --dump - 2>/dev/null)
if [[ ${out:0:1} == "{" && $out == *'"steps": 5'* ]]; then ok "dump to stdout is pure JSON"
else bad "dump to stdout: ${out:0:200}"; fi
expect "unwritable dump exits 2 before running" 2 "^dinghy: --dump /nonexistent/dir/x.json: cannot write: No such file" -- --headless --steps 100000000 --set scene.name=single --dump /nonexistent/dir/x.json
expect "unwritable bench CSV exits 2 before running" 2 "^dinghy: --csv /nonexistent/x.csv: cannot write" -- --bench --csv /nonexistent/x.csv
expect "--dump needs --headless" 2 "--dump, --watch and --audio go with --headless" -- --bench --dump x.json
expect "--audio and --watch do not mix" 2 "--audio and --watch" -- --headless --watch --audio
expect "--width is for pictures" 2 "--width and --height size pictures" -- --headless --width 100

# --bench: a table per scene, the same hash for every thread count, CSV and JSON.
out=$("$bin" --bench --threads 1,2 --steps 20 --repeat 1 --set scene.name=pair \
      --csv "$tmp/b.csv" --json "$tmp/b.json" 2>&1); rc=$?
hashes=$(awk -F, '!/^#/ && NR > 2 {print $11}' "$tmp/b.csv" | sort -u | wc -l)
if [[ $rc -eq 0 && $out == *"scene pair: 2 rings, 1024 vertices"* && $out == *"OMP_PROC_BIND=close"* \
      && $(head -1 "$tmp/b.csv") == "# cpu:"* \
      && $(sed -n 2p "$tmp/b.csv") == scene,dinghies,vertices,elements,threads,steps,ms_per_step,ns_per_vertex_step,speedup,efficiency,hash,ms_min,real_time,substeps,skin,* \
      && $(grep -c '^pair,2,1024,' "$tmp/b.csv") -eq 2 && $hashes -eq 1 && $(grep -c '"hash"' "$tmp/b.json") -eq 2 ]]; then
    ok "bench: table, one hash for 1 and 2 threads, CSV and JSON"
else bad "bench (exit $rc): ${out:0:400} / $(cat "$tmp/b.csv" 2>&1 | head -4)"; fi
expect "bench reference kernel" 0 "reference kernel" -- --bench --kernel reference --steps 2 --repeat 1 --set scene.name=single
expect "bench flags need --bench" 2 "go with --bench" -- --headless --csv x.csv
expect "thread lists need --bench" 2 "needs --bench" -- --headless --threads 1,2
expect "bad thread list" 2 "--threads '1,,2'" -- --bench --threads 1,,2

# Nothing is lost: a run that blows up leaves an earlier dump as it was; no
# temporary file is left behind; checking an output does not create it.
"$bin" --headless --steps 10 --set scene.name=single --dump "$tmp/keep.json" >/dev/null 2>&1
cp "$tmp/keep.json" "$tmp/keep.orig"
"$bin" --headless --steps 3000 --set scene.name=single --set sim.dt=0.005 --set sim.substeps=1 --dump "$tmp/keep.json" >/dev/null 2>&1; rc=$?
if [[ $rc -eq 3 ]] && cmp -s "$tmp/keep.json" "$tmp/keep.orig" && ! ls "$tmp" | grep -q '\.tmp$'; then
    ok "a run that blows up (exit 3) leaves the earlier dump whole"
else bad "dump after a blow-up (exit $rc): $(head -c 200 "$tmp/keep.json")"; fi
"$bin" --headless --steps 3000 --set scene.name=single --set sim.dt=0.005 --set sim.substeps=1 --dump "$tmp/new.json" >/dev/null 2>&1
if [[ ! -e $tmp/new.json ]]; then ok "a run that blows up creates no dump file"
else bad "an empty dump file was left: $(stat -c %s "$tmp/new.json") bytes"; fi
expect "a dump path that is a directory" 2 "^dinghy: --dump $tmp: cannot write: it is a directory" -- --headless --dump "$tmp"

# SIGINT in a headless run: the step under way finishes, then the summary
# and the dump of the state reached; exit 130.
"$bin" --headless --steps 1000000000 --set scene.name=single --dump "$tmp/int.json" >"$tmp/int.out" 2>"$tmp/int.err" &
pid=$!
for _ in $(seq 50); do sleep 0.1; grep -q "using" "$tmp/int.err" && break; done
sleep 0.3
kill -INT "$pid"; wait "$pid"; rc=$?
steps=$(sed -n 's/^steps \([0-9]*\) .*/\1/p' "$tmp/int.out")
if [[ $rc -eq 130 && -n $steps && $steps -gt 0 ]] && grep -q "\"steps\": $steps," "$tmp/int.json" \
   && grep -q "interrupted by SIGINT after step $steps of 1000000000" "$tmp/int.err"; then
    ok "SIGINT: summary and dump at step $steps, exit 130"
else bad "SIGINT (exit $rc): $(cat "$tmp/int.out" "$tmp/int.err") / $(head -c 100 "$tmp/int.json" 2>&1)"; fi

# The benchmark tells the truth: it reads ./dinghy.ini as every mode does
# and says so, with the keys that differ, in its settings line; the suite
# still runs every scene (the file chooses none), the membrane's hashes as
# without the file (dinghy.stiffness does nothing there), the springs'
# not; a warning when oversubscribed; every column's unit; one summary
# line per scene.
mkdir -p "$tmp/benchdir"; binabs=$(realpath "$bin")
printf '[dinghy]\nstiffness = 5000\n' >"$tmp/benchdir/dinghy.ini"
over=$(( $(nproc) + 1 ))
plain=$(cd "$tmp" && "$binabs" --bench --steps 1 --repeat 1 --threads 1 2>/dev/null)
tuned=$(cd "$tmp/benchdir" && "$binabs" --bench --steps 1 --repeat 1 --threads 1 2>&1)
over_out=$("$bin" --bench --steps 1 --repeat 1 --threads "1,$over" --set scene.name=single 2>&1)
sum() { grep -E '^  [a-z0-9]+ +[0-9.]+ ns +[0-9.]+x real time' <<<"$1" \
          | awk '{for (i = 1; i < NF; i++) if ($i == "hash") print $1, $(i + 1)}'; }
if [[ $tuned == *"settings: using config file dinghy.ini (current directory); differs from the defaults in dinghy.stiffness 1500 -> 5000"* \
      && $(sum "$plain" | wc -l) -eq 12 && $(sum "$tuned" | wc -l) -eq 12 \
      && $(sum "$plain" | grep -Ev '^lake(seed|springs) ') == "$(sum "$tuned" | grep -Ev '^lake(seed|springs) ')" \
      && $(sum "$plain" | grep lakesprings) != "$(sum "$tuned" | grep lakesprings)" ]]; then
    ok "bench: the suite reads ./dinghy.ini, says so, and ends with a summary line per scene"
else bad "bench with a ./dinghy.ini: $(sum "$plain") / $(sum "$tuned") / ${tuned:0:300}"; fi
[[ $over_out == *"warning: --threads $over is more than the $(nproc) cores here (oversubscribed)"* ]] \
    && ok "bench: oversubscribed threads warned" || bad "bench: no oversubscription warning"
[[ $tuned == *"then the phases that ran: ms per step, as timed by thread 0; B/vertex: heap bytes per vertex"* ]] \
    && ok "bench: the columns' units are said" || bad "bench: no unit for the columns"
out=$(cd "$tmp/benchdir" && "$binabs" --bench --steps 2 --repeat 1 --threads 1 --config dinghy.ini --set scene.name=single 2>&1)
[[ $out == *"settings: using config file dinghy.ini (--config); --set scene.name=single; differs from the defaults in scene.name rapids -> single, dinghy.stiffness 1500 -> 5000"* ]] \
    && ok "bench: the header names the file, the --set and every setting that differs" || bad "bench header: ${out:0:300}"
# The membrane's table: a settings line naming the --set, headers whole, no
# column that is always zero, no springs, and the membrane's own floor.
out=$(cd "$tmp" && "$binabs" --bench --set scene.name=rapids --threads 1,2 --steps 2 --repeat 1 2>&1); rc=$?
table=$(sed -n '/^threads /,/^$/p' <<<"$out")
zero_cols=$(awk 'NR == 1 {next} NF {n = NF; for (i = 1; i <= NF; i++) if ($i !~ /^[0-9.]+%?$/ || $i + 0 != 0) nz[i] = 1}
                 END {for (i = 1; i <= n; i++) if (!nz[i]) printf "%d ", i}' <<<"$table")
if [[ $rc -eq 0 && $out == *"; --set scene.name=rapids; every key at its default"* \
      && $out == *"membrane skin (65536 triangles)"* && $out != *spring* && -z $zero_cols \
      && $(head -1 <<<"$table") == *" membrane "*" contact "* \
      && $out =~ "membrane: "[0-9.]+" ns per triangle" && $out == *"x the membrane floor"* ]]; then
    ok "bench of the rapids: --set named, whole headers, no empty column, the membrane's floor, no springs"
else bad "bench of the rapids (exit $rc; always-zero columns: $zero_cols): ${out:0:1500}"; fi

# getopt_long: every flag keeps its errors; whole names only; no flag twice;
# flags that would do nothing are refused.
expect "a flag given twice" 2 "^dinghy: --headless given twice" -- --headless --headless
expect "--set repeats" 0 "rings 1 " -- --headless --steps 1 --set scene.name=pair --set scene.name=single
expect "an abbreviated flag is refused" 2 "unknown option '--head'; did you mean '--headless'" -- --head
expect "a typo gets a did-you-mean" 2 "unknown option '--stepz'; did you mean '--steps'" -- --headless --stepz 4
expect "--flag=value works" 0 "^steps 3 " -- --headless --steps=3 --set=scene.name=single
expect "a value for a flag that takes none" 2 "--headless takes no value" -- --headless=1
expect "a missing value" 2 "^dinghy: --steps needs a value" -- --headless --steps
expect "a word that is no flag" 2 "unknown option 'extra'" -- --headless extra
expect "two modes" 2 "--headless and --bench are two modes" -- --headless --bench
expect "--frames with --screenshot does nothing" 2 "--frames does nothing with --screenshot" -- --screenshot x.png --frames 5
expect "--mute with --screenshot does nothing" 2 "--mute does nothing here" -- --mute --screenshot x.png
expect "--mute headless without --audio" 2 "--mute does nothing here" -- --headless --mute
expect "--steps in the demo does nothing" 2 "--steps does nothing in the demo" -- --steps 5

# --input: scripted mouse and keys; a bad script is refused before any
# window opens, naming the file and line.
printf '0.5 cursor 10 20\n0.6 press left\n0.4 key k\n' > "$tmp/back.txt"
printf '1 key q\n2 wiggle\n' > "$tmp/verb.txt"
expect "--input missing file" 2 "^dinghy: --input: cannot read '/nonexistent/s.txt'" -- --input /nonexistent/s.txt
expect "--input time going back" 2 "back.txt:3: TIME goes back" -- --input "$tmp/back.txt"
expect "--input unknown event" 2 "verb.txt:2: unknown event" -- --input "$tmp/verb.txt" --screenshot "$tmp/x.png"
expect "--input is not for headless runs" 2 "--input replays mouse and keys" -- --headless --input "$tmp/verb.txt"

# --obj: one object per ring, vertex normals, outward winding (the signed
# volume of each object's faces is positive and near the ring's volume,
# the membrane's swollen by up to 12%).
"$bin" --headless --steps 50 --set scene.name=pair --obj "$tmp/rings.obj" >/dev/null 2>&1
objs=$(awk '
    /^o / { o++; name[o] = $2 }
    /^v / { n++; x[n] = $2; y[n] = $3; z[n] = $4 }
    /^vn / { vn++ }
    /^f / {
        split($2, a, "/"); split($3, b, "/"); split($4, c, "/"); i = a[1]; j = b[1]; k = c[1]
        vol[o] += (x[i] * (y[j] * z[k] - z[j] * y[k]) + y[i] * (z[j] * x[k] - x[j] * z[k]) \
                   + z[i] * (x[j] * y[k] - y[j] * x[k])) / 6; f++
    }
    END { printf "%d %d %d %d", o, n == vn, f, (vol[1] > 0.9 && vol[1] < 1.2 && vol[2] > 0.9 && vol[2] < 1.2) }' "$tmp/rings.obj" 2>/dev/null)
[[ $objs == "2 1 2048 1" ]] && ok "--obj: one object per ring, normals, outward faces" || bad "--obj: $objs"
expect "--obj needs a .obj name" 2 "--obj 'x.txt': the file name must end in .obj" -- --headless --obj x.txt
expect "--obj does nothing in the demo" 2 "--obj writes the final meshes" -- --obj x.obj

echo "cli: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
