# Start a private PulseAudio daemon as any user, root included (sourced).
#   pulse_start DIR SINK [SINK2...]  -> sets PULSE_PID, PULSE_SERVER, PULSE_CLIENTCONFIG
# The first sink's monitor is the default source. Stop it with: kill "$PULSE_PID".
pulse_start() {
    local dir=$1; shift
    mkdir -p "$dir/home"
    {
        echo "load-module module-native-protocol-unix auth-anonymous=1 socket=$dir/native"
        for s in "$@"; do echo "load-module module-null-sink sink_name=$s"; done
        echo "set-default-sink $1"
        echo "set-default-source $1.monitor"
    } >"$dir/custom.pa"
    echo "autospawn = no" >"$dir/client.conf"
    PULSE_SERVER="unix:$dir/native"
    PULSE_CLIENTCONFIG="$dir/client.conf"
    HOME="$dir/home" XDG_RUNTIME_DIR="$dir" PULSE_CLIENTCONFIG="$dir/client.conf" \
        pulseaudio -n -F "$dir/custom.pa" --system=false --exit-idle-time=-1 \
        --realtime=no --high-priority=no --use-pid-file=no --daemonize=no \
        >"$dir/daemon.log" 2>&1 &
    PULSE_PID=$!
    local deadline=$((SECONDS + 20))
    until PULSE_SERVER=$PULSE_SERVER PULSE_CLIENTCONFIG=$PULSE_CLIENTCONFIG pactl info >/dev/null 2>&1; do
        if [ $SECONDS -ge $deadline ] || ! kill -0 "$PULSE_PID" 2>/dev/null; then
            echo "PulseAudio did not start:"; cat "$dir/daemon.log"; return 1
        fi
        sleep 0.1
    done
}
