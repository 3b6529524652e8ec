#!/usr/bin/env bash
# End-to-end checks of the sound: headless --audio runs on SDL's disk
# driver (raw S16LE stereo at 44.1 kHz), measured by tests/audio_probe.c.
# usage: tests/test_audio.sh ./dinghy build/rel/audio_probe
set -u
bin=${1:-./dinghy}
probe=${2:-build/rel/audio_probe}
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok()  { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

# Every run names the config file it uses on stderr; these checks are about
# what the sound adds there.
drop_config_note() { sed -i '/^dinghy: using /d' "$1"; }

# run NAME ARGS...: a headless run writing $tmp/NAME.raw; stdout to NAME.out,
# stderr to NAME.err, exit code to $rc. One thread: the hash is the same
# for any count, and a second thread only waits on a busy machine.
run() {
    local name=$1; shift
    SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE="$tmp/$name.raw" SDL_DISKAUDIODELAY=0 \
        "$bin" --headless --threads 1 "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
    drop_config_note "$tmp/$name.err"
}
# probe FILE [FROM TO]: sets the probe's measures as shell variables
probe() {
    local line
    line=$("$probe" "$@") || return 1
    read -r _ frames _ seconds _ nonzero _ first _ peak _ rms _ clipped _ wmin _ wmed _ wmax _ above <<<"$line"
}
hash_of() { sed -n 's/.*hash \([0-9a-f]\{16\}\).*/\1/p' "$1"; }
# the audio line's numbers
first_squeak() { sed -n 's/.*first at \([0-9.]*\) s.*/\1/p' "$1"; }
# awk-true: check 'EXPR' with the probe variables
is() {
    awk -v frames="$frames" -v nonzero="$nonzero" -v first="$first" -v peak="$peak" -v rms="$rms" \
        -v clipped="$clipped" -v wmin="$wmin" -v wmed="$wmed" -v wmax="$wmax" -v above="$above" -v t="${t:-0}" \
        "BEGIN { exit !($1) }"
}

# 1. A pair collision: the water, then a squeak right at the contact.
# Where the run starts in the file is SDL's business (it writes silence
# while it holds a new device paused, a varying amount with
# SDL_DISKAUDIODELAY=0); the water loop starts with the first frame of
# sound, 17 steps of 1 ms in, and marks it (turned down: the mark, not the subject).
# (no water drag: the moving dinghy must coast the 1.9 m to the other one)
# The seed physics: these tests are about the sound, not the water model.
# The built-in defaults (an empty config file, not a dinghy.ini found in
# the current directory), so switching models sets no key that the new
# models leave inert: no "does nothing" warning among the lines checked.
: >"$tmp/defaults.ini"
# The runs count steps of 1 ms (the step before it became a 60 Hz frame).
ms=(--set sim.dt=0.001)
seed=(--config "$tmp/defaults.ini" --set water.model=seed --set dinghy.inflation=constant "${ms[@]}")
pair=(--steps 1500 --set scene.name=pair --set scene.height=0 --set scene.spacing=4 --set water.drag=0 "${seed[@]}")
run pair --audio "${pair[@]}" --set audio.ambience_volume=0.15
probe "$tmp/pair.raw"
t=$(awk -v c="$(first_squeak "$tmp/pair.err")" -v w="$first" 'BEGIN { if (c != "" && w >= 0) print w + c - 0.017 }')
if [[ $rc -eq 0 && -n $t ]] && grep -q "audio: disk 44100 Hz 2 ch: 1 squeak (first at" "$tmp/pair.err"; then
    ok "pair collision: one squeak, due at $t s of the output"
else
    bad "pair run (exit $rc): $(cat "$tmp/pair.err")"; t=1
fi
probe "$tmp/pair.raw" 0.1 "$(awk -v t="$t" 'BEGIN { print t - 0.05 }')"
calm_max=$wmax
if is 'wmed > 0.005 && wmax < 1.5 * wmed'; then ok "pair: only the water before the contact (50 ms RMS <= $wmax)"
else bad "pair: before the contact wmed $wmed wmax $wmax"; fi
probe --above "$(awk -v c="$calm_max" 'BEGIN { print 2.5 * c }')" "$tmp/pair.raw" \
    "$(awk -v t="$t" 'BEGIN { print t - 0.1 }')" "$(awk -v t="$t" 'BEGIN { print t + 0.3 }')"
if is 'above >= t - 0.06 && above < t + 0.06 && peak > 0.05 && clipped == 0'; then
    ok "pair: a squeak within 60 ms of the contact (at $above s, peak $peak)"
else bad "pair: no squeak at the contact ($t s): louder from $above, peak $peak"; fi
run pair0 --audio "${pair[@]}" --set audio.ambience_volume=0
probe "$tmp/pair0.raw"
first0=$first
probe "$tmp/pair0.raw" "$(awk -v f="$first0" 'BEGIN { print f + 0.35 }')" 100
if [[ $rc -eq 0 ]] && awk -v f="$first0" 'BEGIN { exit !(f > 0.9) }' && is 'nonzero == 0'; then
    ok "pair without the water: silence but for one squeak (at $first0 s)"
else bad "pair without the water: first sound $first0, $nonzero non-zero frames after it"; fi
"$bin" --headless --threads 1 "${pair[@]}" >"$tmp/silent.out" 2>&1
if [[ -n $(hash_of "$tmp/pair.out") && $(hash_of "$tmp/pair.out") == $(hash_of "$tmp/silent.out") ]]; then
    ok "pair: same hash with and without sound ($(hash_of "$tmp/pair.out"))"
else bad "pair: hash with sound $(hash_of "$tmp/pair.out"), without $(hash_of "$tmp/silent.out")"; fi

# 2. No contacts, no splashes: only the water loop, at its calm level.
single=(--steps 3000 --set scene.name=single --set scene.height=0 "${seed[@]}")
run calm --audio "${single[@]}"
probe "$tmp/calm.raw" 0.2 3.0
# the loop's RMS (0.12) x volume 0.8 x ambience_volume 0.5 x calm level 0.3 = 0.0144
if [[ $rc -eq 0 ]] && grep -q ": 0 squeaks, 0 splashes; 0 of 0 events" "$tmp/calm.err" \
   && is 'wmed > 0.0144 * 0.9 && wmed < 0.0144 * 1.4 && wmin > 0.7 * wmed && wmax < 1.4 * wmed && peak < 6 * wmed'; then
    ok "calm scene: a steady water level only (50 ms RMS $wmin .. $wmax, peak $peak)"
else bad "calm scene (exit $rc): wmin $wmin wmed $wmed wmax $wmax peak $peak; $(cat "$tmp/calm.err")"; fi
run calm0 --audio "${single[@]}" --set audio.ambience_volume=0
probe "$tmp/calm0.raw"
if [[ $rc -eq 0 ]] && is 'frames > 3 * 44100 && nonzero == 0'; then ok "calm scene without the water loop: digital silence"
else bad "calm scene without the loop: frames $frames nonzero $nonzero peak $peak"; fi

# 3. --mute: silence, even with splashes and a contact.
drop=(--steps 1500 --set scene.name=pair "${ms[@]}")
run loud --audio "${drop[@]}"
run muted --audio "${drop[@]}" --mute
probe "$tmp/loud.raw"
loud_peak=$peak
probe "$tmp/muted.raw"
if [[ $rc -eq 0 ]] && grep -q "2 ch muted" "$tmp/muted.err" && is 'frames > 1.5 * 44100 && nonzero == 0' \
   && awk -v p="$loud_peak" 'BEGIN { exit !(p > 0.05) }'; then
    ok "--mute: silence where the same run unmuted peaks at $loud_peak"
else bad "--mute (exit $rc): frames $frames nonzero $nonzero, unmuted peak $loud_peak"; fi
# the pair touches at least once (twice with the membrane defaults: 2 contact starts)
if grep -qE "[1-9][0-9]* squeaks? \(first at" "$tmp/loud.err" && grep -qE "[1-9][0-9]* splash" "$tmp/loud.err"; then
    ok "dropped pair: squeaks and splashes ($(grep -oE '[0-9]* squeaks?' "$tmp/loud.err"), $(grep -o '[0-9]* splash[a-z]*' "$tmp/loud.err"))"
else bad "dropped pair: $(cat "$tmp/loud.err")"; fi

# 4. No audio device at all: one line, exit 0, the same physics.
for drv in default nonexistent; do
    if [[ $drv == default ]]; then
        out=$(env -u SDL_AUDIODRIVER "$bin" --headless --threads 1 --audio "${pair[@]}" 2>"$tmp/nodev.err"); rc=$?
    else
        out=$(SDL_AUDIODRIVER=$drv "$bin" --headless --threads 1 --audio "${pair[@]}" 2>"$tmp/nodev.err"); rc=$?
    fi
    drop_config_note "$tmp/nodev.err"
    lines=$(wc -l <"$tmp/nodev.err")
    if [[ $rc -eq 0 && $out == *"hash $(hash_of "$tmp/silent.out")"* ]] \
       && { [[ $lines -eq 1 ]] && grep -q "^dinghy: sound off: .*; carrying on without sound$" "$tmp/nodev.err" \
            || grep -q "^audio: " "$tmp/nodev.err"; } && ! grep -q "ALSA lib" "$tmp/nodev.err"; then
        ok "no device ($drv driver): runs on, $(head -c 90 "$tmp/nodev.err")"
    else bad "no device ($drv driver): exit $rc, stderr: $(cat "$tmp/nodev.err")"; fi
done

# 5. Silent unless asked: no --audio, or audio.enabled=0, opens no device.
run quiet --steps 100 --set scene.name=single
run disabled --steps 100 --set scene.name=single --audio --set audio.enabled=0
if [[ ! -e $tmp/quiet.raw && ! -e $tmp/disabled.raw && ! -s $tmp/quiet.err && ! -s $tmp/disabled.err ]]; then
    ok "headless without --audio, and audio.enabled=0, leave the sound alone"
else bad "a device was opened: $(ls "$tmp"/quiet.raw "$tmp"/disabled.raw 2>&1; cat "$tmp/disabled.err")"; fi

# 6. 100 rings colliding: busy but not a wall of noise.
run crowd --steps 2000 "${ms[@]}" --set scene.count=100 --set dinghy.segments=12 --set dinghy.sides=6 --set dinghy.band=3 --audio
probe "$tmp/crowd.raw"
squeaks=$(sed -n 's/.*ch: \([0-9]*\) squeak.*/\1/p' "$tmp/crowd.err")
if [[ $rc -eq 0 && ${squeaks:-0} -gt 10 ]] && is 'clipped < 0.0005 * 2 * frames && wmax < 0.3 && wmed > 0.01'; then
    ok "crowd of 100: $squeaks squeaks, loudest 50 ms at RMS $wmax, $clipped clipped samples"
else bad "crowd (exit $rc): clipped $clipped of $((2 * frames)), wmax $wmax wmed $wmed; $(cat "$tmp/crowd.err")"; fi

# 7. The flags are documented.
if "$bin" --help | grep -q -- "--audio" && "$bin" --help | grep -q -- "--mute"; then ok "--help lists --audio and --mute"
else bad "--help lacks --audio or --mute"; fi

echo "audio: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
