#!/usr/bin/env bash
# Hot reload in a headless --watch run: the config file is edited while it
# runs. A good edit is applied, a bad edit is rejected with every error and
# the run goes on, the next good edit is applied, a structural edit rebuilds
# the scene; the final dump shows the last good values. Each step waits for
# the program's line (bounded, so a hang fails instead of blocking).
# usage: tests/test_reload.sh ./dinghy
set -u
bin=$(realpath "${1:-./dinghy}")
pass=0 fail=0
tmp=$(mktemp -d)
pid=
cleanup() { [[ -n $pid ]] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$tmp" || exit 1

ok()  { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

# wait_for LINE [grep flags]: until stderr has that exact line (at most 30 s)
wait_for() {
    for _ in $(seq 300); do
        grep -qx"${2:-F}" -- "$1" err.txt && return 0
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    return 1
}
step() { # NAME LINE [grep flags]
    if wait_for "$2" "${3:-F}"; then ok "$1"; else bad "$1: no line '$2'; stderr: $(tail -n 5 err.txt)"; fi
}
# Saves as editors do: a new file renamed over the old one.
save_by_rename() { sed "$1" c.ini >c.ini.new && mv c.ini.new c.ini; }
# Saves in place: the same inode truncated and written.
save_in_place() { local text; text=$(sed "$1" c.ini); printf '%s\n' "$text" >c.ini; }

"$bin" --print-config --set scene.name=single --set sim.threads=1 --set sim.dt=0.001 --set sim.substeps=1 >c.ini 2>/dev/null
"$bin" --headless --watch --config c.ini --dump final.json >out.txt 2>err.txt &
pid=$!
step "the run starts watching" \
    'dinghy: watching c.ini for changes \((inotify|polling its status)\); runs until interrupted' E

# The springs' stiffness, commented out on the membrane skin: set, it is
# applied and warned about once, naming its line and the membrane's key.
save_by_rename 's/^;stiffness = 1500$/stiffness = 800/'
step "good edit (saved by rename) applied" "dinghy: reloaded c.ini: dinghy.stiffness 1500 -> 800"
stiffness_line=$(grep -n '^stiffness = ' c.ini | cut -d: -f1)
step "a key that does nothing on the membrane: one warning with its line" \
    "dinghy: c.ini:$stiffness_line: dinghy.stiffness does nothing with dinghy.skin = membrane; the membrane's stiffness is dinghy.youngs_modulus"

save_in_place 's/^stiffness = 800$/stifness = 800/; s/^damping = 0.5$/damping = fast/'
step "bad edit (saved in place) rejected" \
    "dinghy: c.ini not applied (2 errors); still running the previous configuration"
damping_line=$(grep -n '^damping = fast$' c.ini | cut -d: -f1)
stifness_line=$(grep -n '^stifness = ' c.ini | cut -d: -f1)
if grep -qxF "dinghy: c.ini:$damping_line: sim.damping = 'fast' is not a number; allowed: 0 to 1000 1/s" err.txt \
   && grep -qxF "dinghy: c.ini:$stifness_line: unknown key 'dinghy.stifness'; did you mean 'dinghy.stiffness'?" err.txt
then ok "every error of the bad edit reported as FILE:LINE"
else bad "errors of the bad edit: $(tail -n 4 err.txt)"; fi
if kill -0 "$pid" 2>/dev/null; then ok "the run goes on after the bad edit"; else bad "the run stopped"; fi

save_by_rename 's/^stifness = 800$/stiffness = 800/; s/^damping = fast$/damping = 0.5/; s/^dt = .*$/dt = 0.0005/'
step "next good edit applied" "dinghy: reloaded c.ini: sim.dt 0.001 -> 0.0005"

save_by_rename 's/^name = single$/name = pair/'
step "structural edit rebuilds the scene" "dinghy: reloaded c.ini: scene.name single -> pair; scene rebuilt"

# A live edit that blows the run up: back to the state and the settings
# before the edit, said in one line, and the run goes on.
save_by_rename 's/^dt = 0.0005$/dt = 0.005/'
step "a blow-up after a live edit rolls back" \
    'dinghy: simulation blew up at step [0-9]+ .*; rolled back to step [0-9]+ \(t = [0-9.]+ s\) and the settings before the edit \(sim.dt 0.005 -> 0.0005\); still running' E
sleep 0.5
if kill -0 "$pid" 2>/dev/null; then ok "the run goes on after the rollback"; else bad "the run ended after the blow-up"; fi
save_by_rename 's/^dt = 0.005$/dt = 0.0005/'
step "the next save applies against the rolled-back settings" "dinghy: reloaded c.ini: no changes"

# A live edit to a skin too soft for its gauge is refused with the reason.
save_by_rename 's/^youngs_modulus = 4000000$/youngs_modulus = 100000/'
step "a skin too soft for its gauge is not applied" \
    "dinghy: c.ini not applied (1 error); still running the previous configuration"
ym_line=$(grep -n '^youngs_modulus = ' c.ini | cut -d: -f1)
if grep -qE "^dinghy: c.ini:$ym_line: dinghy.youngs_modulus = 100000, dinghy.gauge_pressure = 2000, dinghy.thickness = 0.0016: the skin is too soft for its gauge" err.txt
then ok "the refusal names the line and the keys"; else bad "gauge refusal: $(tail -n 3 err.txt)"; fi
save_by_rename 's/^youngs_modulus = 100000$/youngs_modulus = 5000000/'
step "the next good edit applies" "dinghy: reloaded c.ini: dinghy.youngs_modulus 4000000 -> 5000000"
if [[ $(grep -c 'does nothing' err.txt) -eq 1 ]]; then ok "the stiffness was warned about once (not again on each save)"
else bad "warnings: $(grep 'does nothing' err.txt)"; fi

kill -TERM "$pid"
wait "$pid"; rc=$?
pid=
if [[ $rc -eq 0 ]] && grep -q 'rings 2 ' out.txt; then ok "SIGTERM ends the run with its summary (exit 0)"
else bad "end of run: exit $rc, stdout: $(cat out.txt)"; fi
if grep -q '"dt": 0.0005,' final.json && [[ $(grep -c '"com"' final.json) -eq 2 ]]; then
    ok "the final state runs the last good configuration (dt 0.0005, 2 rings)"
else bad "final dump: $(head -c 300 final.json)"; fi
if [[ $(grep -c '^dinghy: reloaded' err.txt) -eq 6 ]]; then ok "one line per applied reload"
else bad "reload lines: $(grep '^dinghy: reloaded' err.txt)"; fi

echo "reload: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
