# Private desktop services for the tests, as root or any user, with no system
# D-Bus and no sound card (sourced; stop each by the PID it sets).
#
#   avahi_start DIR   -> DBUS_PID, AVAHI_PID, DBUS_SYSTEM_BUS_ADDRESS
#     A private bus (dbus-daemon --config-file with its own socket in DIR and a
#     policy that lets anyone own and call anything: it serves only the test)
#     and avahi-daemon on it (--no-drop-root --no-chroot --no-rlimits: as root
#     in a container it cannot chroot or change user; its D-Bus policy file
#     in /usr/share/dbus-1 is not used since the private bus allows all).
#     libavahi-client reaches it through DBUS_SYSTEM_BUS_ADDRESS. avahi-daemon
#     keeps its PID file in /run/avahi-daemon (not configurable), so only one
#     can run on a machine: when one already runs this fails with its message.
#     It announces on interfaces with multicast (a container's eth0; lo too
#     where lo has the MULTICAST flag), so a browser on this machine sees what
#     a host here announces.
#   speechd_start DIR -> SPEECHD_PID, SPEECHD_ADDRESS, SPEECH_LOG
#     speech-dispatcher with its own config, socket and logs in DIR, whose only
#     output module is sd_generic running `echo '$DATA' >> $SPEECH_LOG`: every
#     message it would speak becomes a line of SPEECH_LOG. Audio output goes
#     to libao's null driver (HOME=DIR/home, .libao), so no sound server is needed.
avahi_start() {
    local dir=$1 deadline
    mkdir -p "$dir"
    cat >"$dir/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$dir/system_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="*"/>
    <allow receive_type="*"/>
  </policy>
</busconfig>
CONF
    cat >"$dir/avahi-daemon.conf" <<CONF
[server]
use-ipv4=yes
use-ipv6=yes
enable-dbus=yes
ratelimit-interval-usec=1000000
ratelimit-burst=1000
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
CONF
    dbus-daemon --config-file="$dir/bus.conf" --nofork >"$dir/dbus.log" 2>&1 &
    DBUS_PID=$!
    DBUS_SYSTEM_BUS_ADDRESS="unix:path=$dir/system_bus_socket"
    deadline=$((SECONDS + 20))
    until [ -S "$dir/system_bus_socket" ]; do
        if [ $SECONDS -ge $deadline ] || ! kill -0 "$DBUS_PID" 2>/dev/null; then
            echo "dbus-daemon did not start:"; cat "$dir/dbus.log"; return 1
        fi
        sleep 0.1
    done
    DBUS_SYSTEM_BUS_ADDRESS=$DBUS_SYSTEM_BUS_ADDRESS avahi-daemon -f "$dir/avahi-daemon.conf" \
        --no-drop-root --no-chroot --no-rlimits >"$dir/avahi.log" 2>&1 &
    AVAHI_PID=$!
    deadline=$((SECONDS + 20))
    until grep -q "Server startup complete" "$dir/avahi.log"; do
        if [ $SECONDS -ge $deadline ] || ! kill -0 "$AVAHI_PID" 2>/dev/null; then
            echo "avahi-daemon did not start:"; cat "$dir/avahi.log"
            kill "$DBUS_PID" 2>/dev/null; return 1
        fi
        sleep 0.1
    done
}

speechd_start() {
    local dir=$1 deadline
    mkdir -p "$dir/conf/modules" "$dir/log" "$dir/home"
    SPEECH_LOG="$dir/spoken.txt"
    : >"$SPEECH_LOG"
    echo "default_driver=null" >"$dir/home/.libao"
    cat >"$dir/conf/speechd.conf" <<CONF
LogLevel 3
LogDir "$dir/log"
AudioOutputMethod "libao"
AddModule "textfile" "sd_generic" "textfile.conf"
DefaultModule textfile
DefaultLanguage "en"
CONF
    cat >"$dir/conf/modules/textfile.conf" <<CONF
GenericExecuteSynth "echo \'\$DATA\' >> $SPEECH_LOG"
AddVoice "en" "MALE1" "default"
GenericLanguage "en" "en" "utf-8"
CONF
    SPEECHD_ADDRESS="unix_socket:$dir/speechd.sock"
    HOME="$dir/home" speech-dispatcher --run-single --timeout 0 --config-dir "$dir/conf" \
        --communication-method unix_socket --socket-path "$dir/speechd.sock" --pid-file "$dir/speechd.pid" \
        >"$dir/speechd.out" 2>&1 &
    SPEECHD_PID=$!
    deadline=$((SECONDS + 20))
    until [ -S "$dir/speechd.sock" ]; do
        if [ $SECONDS -ge $deadline ] || ! kill -0 "$SPEECHD_PID" 2>/dev/null; then
            echo "speech-dispatcher did not start:"; cat "$dir/speechd.out" "$dir"/log/*; return 1
        fi
        sleep 0.1
    done
}
