# Shared helpers for scripts/run and scripts/test (sourced, not run).

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
APP_PACKAGES=(pkg-config libpulse-dev libfftw3-dev libsdl2-dev libgl-dev libimgui-dev libsndfile1-dev libpng-dev fonts-dejavu-core)
# What the tests add: a private PulseAudio daemon, a virtual X display, signal tools, ffmpeg.
TEST_PACKAGES=(pulseaudio pulseaudio-utils xvfb x11-apps xdotool sox ffmpeg xauth)
