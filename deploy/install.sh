#!/usr/bin/env bash
# Installs (or updates) the table companion as an appliance on Raspberry Pi OS Lite 64-bit
# bookworm: a versioned release under /opt/companion, a system service on tty1, udev rules and
# the kernel command line. Re-running it is the update. See deploy/README.md.
set -euo pipefail
shopt -s inherit_errexit

# The releases must be readable by the companion user whatever umask sudo passes on.
umask 022
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$HERE/common.sh"

# COMPANION_PREFIX and COMPANION_DATA stand in for the two folders in the tests.
PREFIX=${COMPANION_PREFIX:-/opt/companion}
RELEASES=$PREFIX/releases
DATA=${COMPANION_DATA:-/var/lib/companion}
GAMES=$DATA/games.sqlite3
# A copy of the games as each release left them, kept when the next one changes their layout.
GAMES_COPIES=$DATA/games-by-release
ETC=/etc/companion
UNIT=/etc/systemd/system/companion.service
UPDATE_UNIT=/etc/systemd/system/companion-update.service
STICK_UNIT=/etc/systemd/system/companion-stick@.service
DROPIN_DIR=/etc/systemd/system/companion.service.d
RULES_DIR=/etc/udev/rules.d
POLKIT_RULE=/etc/polkit-1/rules.d/50-companion.rules
# The programs the stick and update units run, with the common.sh they source.
HELPERS=/usr/local/lib/companion
# Where USB sticks are mounted for the app (stick-mount.sh).
STICKS=/media/companion
# Where overlayroot mounts the card's own root, read-only, under the read-only root's overlay.
LOWER_ROOT=${COMPANION_LOWER_ROOT:-/media/root-ro}
# Exit code of an install refused because of its signature or a changed file.
REFUSED=3
GRUB_DROPIN=/etc/default/grub.d/companion.cfg
LOCK=/run/lock/companion-install.lock
KEEP_RELEASES=3
# Any fixed time will do: with it, the same source always gives a byte-identical wheel, so
# the release name (version + wheel hash) changes exactly when the code does.
WHEEL_EPOCH=315532800
CMDLINE_WORDS_WANTED=(consoleblank=0 vt.global_cursor_default=0)
# polkitd lets the app's user turn the machine off and start an update; openssl checks an
# update's signature; espeak-ng is the voice that reads the step and the news aloud (it brings
# ALSA's library, which plays to the HDMI screen or the headphone jack; no mixer tools needed).
RUNTIME_PACKAGES=(python3 python3-venv ca-certificates udev polkitd openssl
    libgl1 libegl1 libgles2 libgbm1 libdrm2 libgl1-mesa-dri libmtdev1 libxrender1 espeak-ng)
CAGE_PACKAGES=(cage seatd xwayland libxcursor1 libxi6 libxrandr2 libxss1 libxext6 libxfixes3)

usage() {
    cat <<'EOF'
Usage: sudo deploy/install.sh [OPTIONS]

Installs the table companion, or updates it to the code this script sits in; run it again to
update. The app then starts at boot on the screen, without a desktop.

  --display kmsdrm|cage  how the app reaches the screen: straight through KMS/DRM (default) or
                         inside the Cage compositor, for panels where KMS/DRM stays black
                         (kept from the last run when not given)
  --rotate 0|90|180|270  the screen's default rotation in degrees (kept when not given)
  --source DIR           install offline from a wheelhouse (python3 tasks.py wheelhouse DIR)
  --require-signature    with --source: install only if DIR's SHA256SUMS is signed by a key
                         in /etc/companion/signing-keys and every file in DIR matches it;
                         otherwise change nothing and exit with code 3
  --no-start             install and enable, but do not (re)start the app (image builds)
  --health-timeout SECS  how long the started app has to report ready (default 90)
  --rollback             go back to the previous release and restart (across a change
                         of the games file's layout, with the games as that release left
                         them; the newer games are kept for the way forward)
  --uninstall            remove the app, its service, rules and user; keep the games
                         in /var/lib/companion
  --purge                like --uninstall, and delete the games too
  -h, --help             this text
EOF
}

main() {
    local display="" rotate="" source_dir="" action=install start=1 health_timeout=90
    local require_signature=0
    while (($#)); do
        case "$1" in
            --display)
                [[ $# -ge 2 ]] || die "--display needs kmsdrm or cage"
                [[ "$2" == kmsdrm || "$2" == cage ]] || die "--display: '$2' is not kmsdrm or cage"
                display=$2; shift 2 ;;
            --rotate)
                [[ $# -ge 2 ]] || die "--rotate needs 0, 90, 180 or 270"
                [[ "$2" =~ ^(0|90|180|270)$ ]] || die "--rotate: '$2' is not 0, 90, 180 or 270"
                rotate=$2; shift 2 ;;
            --source)
                [[ $# -ge 2 ]] || die "--source needs a wheelhouse directory"
                [[ -d "$2" ]] || die "--source: no such directory: $2"
                source_dir=$(cd "$2" && pwd); shift 2 ;;
            --health-timeout)
                [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || die "--health-timeout needs whole seconds"
                health_timeout=$2; shift 2 ;;
            --no-start) start=0; shift ;;
            --require-signature) require_signature=1; shift ;;
            --rollback) action=rollback; shift ;;
            --uninstall) action=uninstall; shift ;;
            --purge) action=purge; shift ;;
            -h | --help) usage; exit 0 ;;
            *) usage >&2; die "unknown option: $1" ;;
        esac
    done

    if ((require_signature)) && [[ -z "$source_dir" ]]; then
        die "--require-signature needs --source DIR (the signed wheelhouse)"
    fi
    check_platform
    ((EUID == 0)) || die "run it as root: sudo $0 $*"
    check_writable_root "$action"
    take_lock

    case "$action" in
        install) do_install "$display" "$rotate" "$source_dir" "$start" "$health_timeout" \
            "$require_signature" ;;
        rollback) rollback "$start" "$health_timeout" ;;
        uninstall) uninstall 0 ;;
        purge) uninstall 1 ;;
    esac
}

# With the read-only root (readonly-root.sh) whatever is written to / lives in RAM and is gone
# at the next boot. An install or roll-back then runs in the overlay like anywhere else, so the
# health check and the automatic roll-back work at once, and only once it succeeded writes the
# result onto the card below as well (persist_on_card): no reboots, and a failed update leaves
# the card as it was. Removing the app is left to a writable boot.
ON_OVERLAY=0
check_writable_root() {
    local action=${1:-install} fstype
    fstype=${COMPANION_ROOT_FSTYPE:-$(findmnt -n -o FSTYPE / 2>/dev/null || true)}
    [[ "$fstype" == overlay ]] || return 0
    case "$action" in
        install | rollback)
            mountpoint -q "$LOWER_ROOT" || die "the root filesystem is an overlay, but the" \
                "card's own root is not mounted at $LOWER_ROOT (where overlayroot puts it):" \
                "nothing installed now would be kept."
            ON_OVERLAY=1 ;;
        *)
            die "the root filesystem is the read-only overlay: the removal would be undone at" \
                "the next boot. Run 'sudo deploy/readonly-root.sh --disable', reboot, and run" \
                "this again." ;;
    esac
}

take_lock() {
    mkdir -p "$(dirname "$LOCK")"
    exec 9>"$LOCK"
    flock -n 9 || die "another install.sh is running (lock $LOCK); wait for it to finish."
}

systemd_running() { [[ -d /run/systemd/system ]]; }

do_install() {
    local display=$1 rotate=$2 source_dir=$3 start=$4 health_timeout=$5 require_signature=$6
    local release old files_changed changed=0
    if ((require_signature)) && ! verify_release "$source_dir"; then
        say "error: the update in $source_dir was not installed; nothing was changed."
        exit "$REFUSED"
    fi
    [[ -n "$display" ]] || display=$(installed_display)
    [[ -n "$rotate" ]] || rotate=$(env_get "$ETC/environment" COMPANION_ROTATION)
    [[ -n "$rotate" ]] || rotate=0

    install_packages "$display"
    make_user
    release=$(build_release "$source_dir")
    old=$(current_release)
    if [[ "$old" != "$release" ]]; then
        keep_games_for "$old" "$release"
        switch_to "$release"
        changed=1
        say "release $release is now current${old:+ (previous: $old)}"
    else
        say "release $release is already current"
    fi
    files_changed=$(install_system_files "$display" "$rotate")
    [[ -z "$files_changed" ]] || changed=1
    prune_releases

    if ! systemd_running; then
        say "systemd is not running (chroot or image build): companion.service is enabled and" \
            "starts at the next boot; no health check."
    elif ((!start)); then
        say "--no-start: companion.service is enabled and starts at the next boot."
    elif ((changed)) || ! systemctl is-active --quiet companion.service; then
        restart_and_check "$health_timeout" "$old"
    else
        say "nothing changed; companion.service keeps running."
    fi
    persist_on_card
}

# The display mode installed last time: the Cage drop-in present or not.
installed_display() {
    if [[ -f "$DROPIN_DIR/cage.conf" ]]; then echo cage; else echo kmsdrm; fi
}

install_packages() {
    local display=$1 package
    local -a wanted=("${RUNTIME_PACKAGES[@]}") missing=()
    [[ "$display" == cage ]] && wanted+=("${CAGE_PACKAGES[@]}")
    for package in "${wanted[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$package")
    done
    ((${#missing[@]})) || return 0
    if ((ON_OVERLAY)); then
        die "this version needs Debian packages the read-only root cannot keep: ${missing[*]}." \
            "Run 'sudo deploy/readonly-root.sh --disable', reboot, and install it from there."
    fi
    say "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

make_user() {
    local group
    for group in video render input dialout audio; do
        getent group "$group" >/dev/null || groupadd --system "$group"
    done
    if ! getent passwd companion >/dev/null; then
        useradd --system --user-group --home-dir "$DATA" --no-create-home \
            --shell /usr/sbin/nologin --comment "Spirit Island table companion" companion
        say "created the system user companion"
    fi
    usermod --append --groups video,render,input,dialout,audio companion
    install -d -o companion -g companion -m 0700 "$DATA"
}

# Builds (or finds) the release for the given source and prints its name, "<version>-<hash>".
build_release() {
    local source_dir=$1 work wheel name version hash
    mkdir -p "$RELEASES"
    # On the same filesystem as the releases, so the finished venv is renamed, not copied.
    work=$(mktemp -d "$RELEASES/.build-XXXXXX")
    # shellcheck disable=SC2064 # $work is meant to be expanded now
    trap "rm -rf '$work'" EXIT
    python3 -m venv "$work/venv"
    if [[ -n "$source_dir" ]]; then
        wheel=$(find_wheel "$source_dir")
    else
        wheel=$(build_wheel "$work")
    fi
    name=$(basename "$wheel")
    version=$(cut -d- -f2 <<<"$name")
    hash=$(sha256sum "$wheel" | cut -c1-10)
    name="$version-$hash"
    if [[ -f "$RELEASES/$name/.companion-release" ]]; then
        say "release $name is already installed"
        printf '%s' "$name"
        return 0
    fi
    rm -rf "${RELEASES:?}/$name"    # a release cut short before it was finished
    say "building release $name"
    if [[ -n "$source_dir" ]]; then
        "$work/venv/bin/pip" install --quiet --no-compile --no-index \
            --find-links "$source_dir" "$wheel" >&2
    else
        "$work/venv/bin/pip" install --quiet --no-compile "$wheel" >&2
    fi
    make_relocated "$work/venv" "$RELEASES/$name"
    # Bytecode compiled at the final path, so tracebacks in the journal name real files.
    "$RELEASES/$name/bin/python" -m compileall -q -j 0 "$RELEASES/$name/lib" >/dev/null \
        || { rm -rf "${RELEASES:?}/$name"; die "compiling release $name failed"; }
    smoke_test "$RELEASES/$name" "$version" || {
        rm -rf "${RELEASES:?}/$name"
        die "release $name failed its smoke test; the running release was not touched."
    }
    "$RELEASES/$name/bin/python" -c 'from companion.store import SCHEMA_VERSION
print(SCHEMA_VERSION)' >"$RELEASES/$name/.companion-schema" \
        || { rm -rf "${RELEASES:?}/$name"; die "release $name cannot say its games layout"; }
    printf '%s\n' "$name" >"$RELEASES/$name/.companion-release"
    rm -rf "$work"
    trap - EXIT
    printf '%s' "$name"
}

find_wheel() {
    local dir=$1
    local -a found
    shopt -s nullglob
    found=("$dir"/spirit_island_companion-*.whl)
    shopt -u nullglob
    ((${#found[@]} == 1)) || die "--source: expected exactly one spirit_island_companion-*.whl" \
        "in $dir, found ${#found[@]}"
    printf '%s' "${found[0]}"
}

# The companion's wheel from the checkout around this script, built in a copy of it so the
# checkout gets no root-owned build/ folder and no stale build/ files end up in the wheel.
build_wheel() {
    local work=$1 repo
    repo=$(dirname "$HERE")
    [[ -f "$repo/pyproject.toml" ]] || die "no pyproject.toml in $repo: use --source DIR"
    mkdir -p "$work/src" "$work/wheel"
    tar -C "$repo" --exclude=./.git --exclude=./.venv --exclude=./build --exclude=./dist \
        --exclude='*.egg-info' --exclude=__pycache__ --exclude=./.pytest_cache \
        --exclude=./.mypy_cache --exclude=./.ruff_cache --exclude=./.hypothesis \
        --exclude=./screenshots --exclude=./tests -cf - . | tar -C "$work/src" -xf -
    say "building the companion's wheel"
    SOURCE_DATE_EPOCH=$WHEEL_EPOCH "$work/venv/bin/pip" wheel --quiet --no-deps \
        --wheel-dir "$work/wheel" "$work/src" >&2
    find_wheel "$work/wheel"
}

# A venv remembers its path in its scripts' #! lines and activate files: moved, they must say so.
make_relocated() {
    local from=$1 to=$2 file
    while IFS= read -r file; do
        sed -i "s|$from|$to|g" "$file"
    done < <(grep -rlIF "$from" "$from/bin" "$from/pyvenv.cfg" || true)
    mv -T "$from" "$to"
}

# Before a release may become current: it starts, and it plays a short game.
smoke_test() {
    local dir=$1 version=$2 home out
    home=$(mktemp -d)
    chown companion: "$home"
    out=$(as_companion "$home" "$dir/bin/companion" --version) || true
    if [[ "$out" != "companion $version" ]]; then
        say "smoke test: 'companion --version' said '$out', expected 'companion $version'"
        rm -rf "$home"
        return 1
    fi
    out=$(printf '%s\n' '{"cmd":"new_game","players":1,"seed":1}' '{"cmd":"state"}' \
        | as_companion "$home" "$dir/bin/companion" script) || true
    rm -rf "$home"
    if ! "$dir/bin/python" -c '
import json, sys
answers = [json.loads(line) for line in sys.stdin if line.strip()]
sys.exit(0 if len(answers) == 2 and all(a.get("ok") is True for a in answers) else 1)
' <<<"$out"; then
        say "smoke test: 'companion script' did not play a game; it answered:"
        printf '%s\n' "$out" | head -c 2000 >&2
        return 1
    fi
    say "smoke test passed: companion $version plays a game"
}

as_companion() {
    local home=$1
    shift
    runuser -u companion -- env -i PATH=/usr/bin:/bin HOME="$home" LANG=C.UTF-8 "$@"
}

current_release() {
    [[ -L "$PREFIX/current" ]] || return 0
    basename "$(readlink "$PREFIX/current")"
}

previous_release() {
    [[ -L "$PREFIX/previous" ]] || return 0
    basename "$(readlink "$PREFIX/previous")"
}

# Points current at the release, and previous at the one it replaces; each link is swapped
# by one rename, so a power cut leaves either the old or the new link.
switch_to() {
    local release=$1 old
    [[ -f "$RELEASES/$release/.companion-release" ]] || die "no finished release $release"
    old=$(current_release)
    if [[ -n "$old" && "$old" != "$release" ]]; then
        ln -sfn "releases/$old" "$PREFIX/previous.new"
        mv -T "$PREFIX/previous.new" "$PREFIX/previous"
    fi
    ln -sfn "releases/$release" "$PREFIX/current.new"
    mv -T "$PREFIX/current.new" "$PREFIX/current"
    # Recorded too, so which release is which survives a listing of the folder.
    sync -f "$PREFIX" 2>/dev/null || true
}

# Keeps current, previous and the newest others up to KEEP_RELEASES in all.
prune_releases() {
    local current previous name room=$KEEP_RELEASES
    current=$(current_release)
    previous=$(previous_release)
    [[ -z "$current" ]] || room=$((room - 1))
    [[ -z "$previous" || "$previous" == "$current" ]] || room=$((room - 1))
    while IFS= read -r name; do
        if [[ "$name" == "$current" || "$name" == "$previous" ]]; then
            continue
        fi
        if ((room > 0)); then
            room=$((room - 1))
            continue
        fi
        say "removing old release $name"
        rm -rf "${RELEASES:?}/$name"
        rm -f "$GAMES_COPIES/$name.sqlite3"
    done < <(cd "$RELEASES" && find . -mindepth 2 -maxdepth 2 -name .companion-release \
        -printf '%T@ %h\n' | sort -rn | cut -d' ' -f2 | sed 's|^\./||')
}

# Units, drop-in, environment, udev and polkit rules, helpers, signing keys, kernel command line.
# Prints "changed" if any changed.
install_system_files() {
    local display=$1 rotate=$2 repo changes="" helper
    repo=$(dirname "$HERE")
    changes+=$(install_if_different "$HERE/companion.service" "$UNIT")
    changes+=$(install_if_different "$HERE/companion-update.service" "$UPDATE_UNIT")
    changes+=$(install_if_different "$HERE/companion-stick@.service" "$STICK_UNIT")
    for helper in common.sh stick-mount.sh update-from-stick.sh; do
        changes+=$(install_if_different "$HERE/$helper" "$HELPERS/$helper" 0755)
    done
    changes+=$(install_if_different "$HERE/50-companion.rules" "$POLKIT_RULE")
    changes+=$(install_signing_keys)
    changes+=$(install_if_different "$HERE/99-companion-usb-sticks.rules" \
        "$RULES_DIR/99-companion-usb-sticks.rules")
    install -d -m 0755 "$STICKS"
    if [[ "$display" == cage ]]; then
        changes+=$(install_if_different "$HERE/cage.conf" "$DROPIN_DIR/cage.conf")
    elif [[ -f "$DROPIN_DIR/cage.conf" ]]; then
        rm -f "$DROPIN_DIR/cage.conf"
        rmdir --ignore-fail-on-non-empty "$DROPIN_DIR"
        changes+=changed
    fi
    mkdir -p "$ETC"
    changes+=$(env_set "$ETC/environment" COMPANION_ROTATION "$rotate")
    changes+=$(install_if_different "$HERE/99-companion-backlight.rules" \
        "$RULES_DIR/99-companion-backlight.rules")
    changes+=$(install_if_different "$repo/hardware/udev/99-companion-rfid.rules" \
        "$RULES_DIR/99-companion-rfid.rules")
    set_kernel_cmdline

    systemctl enable companion.service >&2
    # The app has tty1; a login prompt there would fight it for the screen at boot.
    systemctl disable getty@tty1.service >/dev/null 2>&1 || true
    if [[ "$(systemctl get-default 2>/dev/null || true)" != multi-user.target ]]; then
        systemctl set-default multi-user.target >&2
    fi
    if systemd_running; then
        systemctl daemon-reload
        udevadm control --reload-rules 2>/dev/null || true
        udevadm trigger --subsystem-match=backlight --subsystem-match=tty --action=add \
            2>/dev/null || true
    fi
    [[ -n "$changes" ]] && echo changed
    return 0
}

install_if_different() {
    local from=$1 to=$2 mode=${3:-0644}
    if [[ -f "$to" ]] && cmp -s "$from" "$to" && [[ "$(stat -c %a "$to")" == "${mode#0}" ]]; then
        return 0
    fi
    install -D -m "$mode" "$from" "$to"
    say "installed $to"
    echo changed
}

# The keys an update must be signed with are the ones this release ships (deploy/signing-keys):
# a release signed with an old key can bring in the next one, and drop the old.
install_signing_keys() {
    local key name
    local -a shipped
    shopt -s nullglob
    shipped=("$HERE"/signing-keys/*.pub)
    shopt -u nullglob
    mkdir -p "$TRUSTED_KEYS_DIR"
    for key in "${shipped[@]}"; do
        install_if_different "$key" "$TRUSTED_KEYS_DIR/$(basename "$key")"
    done
    for key in "$TRUSTED_KEYS_DIR"/*.pub; do
        name=$(basename "$key")
        if [[ -f "$key" && ! -f "$HERE/signing-keys/$name" ]]; then
            rm -f "$key"
            say "removed the signing key $name, which this release no longer ships"
            echo changed
        fi
    done
}

# No console blanking and no blinking text cursor under the app; takes effect at the next boot.
set_kernel_cmdline() {
    local file changed
    file=$(cmdline_file)
    if [[ -n "$file" ]]; then
        changed=$(cmdline_set "$file" "${CMDLINE_WORDS_WANTED[@]}")
        if [[ -n "$changed" ]]; then
            say "kernel command line in $file: ${CMDLINE_WORDS_WANTED[*]} (from the next boot)"
        fi
    elif [[ -d /etc/default/grub.d || -f /etc/default/grub ]]; then
        local text="GRUB_CMDLINE_LINUX_DEFAULT=\"\$GRUB_CMDLINE_LINUX_DEFAULT ${CMDLINE_WORDS_WANTED[*]}\""
        if [[ ! -f "$GRUB_DROPIN" ]] || [[ "$(cat "$GRUB_DROPIN")" != "$text" ]]; then
            mkdir -p "$(dirname "$GRUB_DROPIN")"
            printf '%s\n' "$text" >"$GRUB_DROPIN"
            if command -v update-grub >/dev/null; then update-grub >/dev/null 2>&1 || true; fi
            say "kernel command line through $GRUB_DROPIN (from the next boot)"
        fi
    else
        say "note: no cmdline.txt and no GRUB found; add ${CMDLINE_WORDS_WANTED[*]} to the" \
            "kernel command line yourself to keep the screen from blanking."
    fi
}

# Restarts the app and waits for READY=1 (Type=notify); a release that does not get there is
# swapped back for the one before it.
restart_and_check() {
    local timeout=$1 fallback=$2 failed
    say "starting companion.service (waiting up to ${timeout}s for the app to report ready)"
    systemctl reset-failed companion.service 2>/dev/null || true
    systemctl restart --no-block companion.service
    if healthy "$timeout"; then
        say "companion.service is running: release $(current_release)"
        return 0
    fi
    failed=$(current_release)
    if [[ -n "$fallback" && "$fallback" != "$failed" \
        && -f "$RELEASES/$fallback/.companion-release" ]]; then
        say "release $failed did not come up; going back to $fallback"
        systemctl stop companion.service 2>/dev/null || true
        games_for "$failed" "$fallback" \
            || say "the app will show the games read-only and say why."
        switch_to "$fallback"
        systemctl reset-failed companion.service 2>/dev/null || true
        systemctl restart --no-block companion.service
        if healthy "$timeout"; then
            die "release $failed did not start and release $fallback is running again." \
                "See why with: journalctl -u companion -b -n 50"
        fi
        die "neither $failed nor $fallback started. See why with: journalctl -u companion -b -n 50"
    fi
    die "companion.service did not start. See why with: journalctl -u companion -b -n 50"
}

# Active within the timeout and still active, without a restart, a few seconds later. A release
# that dies at start is given up on after its second automatic restart, not waited out: the unit
# would go on restarting it (StartLimitBurst) while the table shows nothing.
CRASH_RESTARTS=2
healthy() {
    local timeout=$1 waited=0 state restarts first
    first=$(systemctl show -p NRestarts --value companion.service 2>/dev/null || true)
    while ((waited < timeout)); do
        state=$(systemctl is-active companion.service 2>/dev/null || true)
        [[ "$state" == active || "$state" == failed ]] && break
        restarts=$(systemctl show -p NRestarts --value companion.service 2>/dev/null || true)
        if [[ "$restarts" =~ ^[0-9]+$ && "$first" =~ ^[0-9]+$ ]] \
            && ((restarts >= first + CRASH_RESTARTS)); then
            say "companion.service failed at start and was restarted $((restarts - first)) times"
            return 1
        fi
        sleep 1
        waited=$((waited + 1))
    done
    [[ "$state" == active ]] || return 1
    restarts=$(systemctl show -p NRestarts --value companion.service)
    sleep 5
    [[ "$(systemctl is-active companion.service 2>/dev/null || true)" == active ]] \
        && [[ "$(systemctl show -p NRestarts --value companion.service)" == "$restarts" ]]
}

rollback() {
    local start=$1 timeout=$2 current previous
    current=$(current_release)
    previous=$(previous_release)
    [[ -n "$previous" && -f "$RELEASES/$previous/.companion-release" ]] \
        || die "there is no previous release to go back to."
    games_for "$current" "$previous" || exit 1
    switch_to "$previous"
    say "rolled back from $current to $previous (run --rollback again to undo)"
    if systemd_running && ((start)); then
        restart_and_check "$timeout" "$current"
    fi
    persist_on_card
}

# --- the read-only root ----------------------------------------------------------------------

# What the installer owns outside /opt/companion, made the same on the card as in the overlay.
persisted_paths() {
    printf '%s\n' "$UNIT" "$UPDATE_UNIT" "$STICK_UNIT" "$DROPIN_DIR" "$ETC" "$HELPERS" \
        "$POLKIT_RULE" "$RULES_DIR/99-companion-backlight.rules" \
        "$RULES_DIR/99-companion-rfid.rules" "$RULES_DIR/99-companion-usb-sticks.rules" \
        /etc/systemd/system/multi-user.target.wants/companion.service \
        /etc/systemd/system/getty.target.wants/getty@tty1.service \
        /etc/systemd/system/default.target
}

# On the read-only root, after a successful install or roll-back: writes its result onto the
# card's own root below the overlay (overlayroot-chroot does the same: remount it read-write,
# change it, remount it read-only), so the release in use now is the one after a reboot too.
# Only what the installer owns is copied; everything else written since boot stays in RAM.
persist_on_card() {
    ((ON_OVERLAY)) || return 0
    say "writing the result onto the card below the read-only root ($LOWER_ROOT)"
    mount -o remount,rw "$LOWER_ROOT" \
        || die "could not make $LOWER_ROOT writable: release $(current_release) runs now but" \
            "the card keeps the one before it after a reboot."
    # Called plainly (not in an `if`), so errexit stops at the first failed copy.
    trap card_write_failed EXIT
    mirror_onto_card
    trap - EXIT
    sync -f "$LOWER_ROOT$PREFIX" 2>/dev/null || sync
    back_to_read_only \
        || say "note: $LOWER_ROOT stays writable until the next boot"
    say "the card now starts release $(current_release) at boot as well"
}

# The files removed below (a pruned release, the links replaced) are still held by the overlay's
# cached dentries, and the kernel refuses to make a file system with removed files still held
# read-only (EBUSY): the cache is let go of, then asked again.
back_to_read_only() {
    local attempt
    for attempt in 1 2 3; do
        mount -o remount,ro "$LOWER_ROOT" 2>/dev/null && return 0
        sync
        echo 2 > /proc/sys/vm/drop_caches 2>/dev/null || true
        sleep "$attempt"
    done
    mount -o remount,ro "$LOWER_ROOT"
}

card_write_failed() {
    back_to_read_only 2>/dev/null || true
    say "error: writing onto the card failed (above): release $(current_release) runs now, and" \
        "after a reboot the release the card had before comes back."
}

mirror_onto_card() {
    local below=$LOWER_ROOT$RELEASES name path
    mkdir -p "$below"
    # A finished release never changes: the new ones are copied (beside, then renamed into
    # place), those pruned here are removed there, before the links point at them.
    while IFS= read -r name; do
        [[ -f "$below/$name/.companion-release" ]] && continue
        rm -rf "${below:?}/.copy-$name"
        cp -a "$RELEASES/$name" "$below/.copy-$name"
        mv -T "$below/.copy-$name" "$below/$name"
        say "copied release $name onto the card"
    done < <(finished_releases "$RELEASES")
    mirror_path "$PREFIX/previous"
    mirror_path "$PREFIX/current"
    while IFS= read -r name; do
        [[ -f "$RELEASES/$name/.companion-release" ]] || rm -rf "${below:?}/$name"
    done < <(finished_releases "$below")
    while IFS= read -r path; do
        mirror_path "$path"
    done < <(persisted_paths)
    # The folder sticks are mounted in, but never what is mounted there.
    mkdir -p "$LOWER_ROOT$STICKS"
}

# A folder on both sides, brought up to date entry by entry: what is the same in it stays.
mirror_folder() {
    local path=$1 below=$2 name
    chmod --reference="$path" "$below"
    chown --reference="$path" "$below"
    while IFS= read -r name; do
        [[ -e "$path/$name" || -L "$path/$name" ]] || rm -rf "${below:?}/$name"
    done < <(find "$below" -mindepth 1 -maxdepth 1 -printf '%f\n')
    while IFS= read -r name; do
        mirror_path "$path/$name"
    done < <(find "$path" -mindepth 1 -maxdepth 1 -printf '%f\n')
}

# Is BELOW already what PATH is: the same names, kinds, modes, owners, links and contents?
same_below() {
    [[ -e "$2" || -L "$2" ]] || return 1
    [[ "$(tree_listing "$1")" == "$(tree_listing "$2")" ]] || return 1
    diff -r --no-dereference -q "$1" "$2" >/dev/null 2>&1
}

tree_listing() {
    find "$1" -printf '%P %y %m %U %G %l\n' | LC_ALL=C sort
}

finished_releases() {
    [[ -d "$1" ]] || return 0
    (cd "$1" && find . -mindepth 2 -maxdepth 2 -name .companion-release -printf '%h\n' \
        | sed 's|^\./||')
}

# Makes LOWER_ROOT/PATH what PATH is here: a copy of the file, link or folder, or nothing.
# What is the same already is left alone: a file replaced there is removed from the card while
# a program may still hold it (update-from-stick.sh runs from HELPERS while it installs), and the
# kernel keeps a file system with such a file writable (back_to_read_only).
mirror_path() {
    local path=$1 below=$LOWER_ROOT$1
    if [[ ! -e "$path" && ! -L "$path" ]]; then
        rm -rf "$below"
        return 0
    fi
    same_below "$path" "$below" && return 0
    if [[ -d "$path" && ! -L "$path" && -d "$below" && ! -L "$below" ]]; then
        mirror_folder "$path" "$below"
        return 0
    fi
    mkdir -p "$(dirname "$below")"
    rm -rf "$below.companion-new"
    cp -a "$path" "$below.companion-new"
    [[ -d "$below" && ! -L "$below" ]] && rm -rf "$below"
    mv -T "$below.companion-new" "$below"
}

# --- the games across releases ---------------------------------------------------------------

# How many migrations of the games file a release knows (its schema); "" when it cannot say.
release_schema() {
    local release=$1 dir=$RELEASES/$1
    if [[ -s "$dir/.companion-schema" ]]; then
        cat "$dir/.companion-schema"
    elif [[ -x "$dir/bin/python" ]]; then  # a release from before the file was written
        "$dir/bin/python" -c 'from companion.store import SCHEMA_VERSION
print(SCHEMA_VERSION)' 2>/dev/null || true
    fi
}

# Runs a command as the owner of the data folder, so every file it makes there is the app's.
as_data_owner() {
    local owner
    owner=$(stat -c %U "$DATA")
    if [[ "$owner" == "$(id -un)" ]]; then
        "$@"
    else
        runuser -u "$owner" -- "$@"
    fi
}

# deploy/games_file.py with the system's Python, fed on stdin: the data owner need not be able
# to read the checkout.
games_file() {
    as_data_owner python3 - "$@" <"$HERE/games_file.py"
}

# The schema a games file is at ("" when there is none).
games_schema() {
    [[ -f "$1" ]] || return 0
    games_file schema "$1"
}

# Before `to` replaces `from`: when `to` changes the games file's layout, keep a copy of the
# games as `from` leaves them, for a roll-back.
keep_games_for() {
    local from=$1 to=$2 have want
    [[ -n "$from" && -f "$GAMES" ]] || return 0
    want=$(release_schema "$to")
    have=$(games_schema "$GAMES")
    [[ -n "$want" && -n "$have" && "$want" == "$have" ]] && return 0
    as_data_owner mkdir -p "$GAMES_COPIES"
    games_file copy "$GAMES" "$GAMES_COPIES/$from.sqlite3"
    say "kept a copy of the games as release $from leaves them: $GAMES_COPIES/$from.sqlite3"
}

# Makes the games file one that release `to` can write, when going back (or forth) from `from`:
# the same layout stays; across a change of layout, the copy kept for `to` is put back and the
# games of `from` are kept as its copy. Fails, saying why and changing nothing, when `to`
# could only read them.
games_for() {
    local from=$1 to=$2 have want copy
    [[ -f "$GAMES" ]] || return 0
    want=$(release_schema "$to")
    have=$(games_schema "$GAMES")
    [[ -n "$want" ]] || { say "release $to cannot say which games layout it reads;" \
        "it was not made current."; return 1; }
    [[ -z "$have" || "$have" == "$want" ]] && return 0
    copy=$GAMES_COPIES/$to.sqlite3
    if [[ -f "$copy" && "$(games_schema "$copy")" == "$want" ]]; then
        if systemd_running; then
            systemctl stop companion.service
        fi
        as_data_owner mkdir -p "$GAMES_COPIES"
        games_file restore "$copy" "$GAMES" "$GAMES_COPIES/$from.sqlite3" || {
            say "the games were not switched, so release $to was not made current."
            return 1
        }
        say "the games are back as release $to left them ($(stat -c %y "$copy" | cut -c1-16));" \
            "those of release $from are kept in $GAMES_COPIES/$from.sqlite3 and come back" \
            "with it (--rollback again)."
        return 0
    fi
    ((have < want)) && return 0  # release $to brings the file up to its layout itself
    say "cannot go back to release $to: the games file has the layout of a newer release" \
        "(schema $have; $to knows $want), so $to could only show the games, not save any, and" \
        "no copy of the games as $to left them is kept. Stay on $from (the games are safe)."
    return 1
}

uninstall() {
    local purge=$1 file
    if systemd_running; then
        systemctl disable --now companion.service >&2 2>/dev/null || true
    else
        systemctl disable companion.service >&2 2>/dev/null || true
    fi
    rm -f "$UNIT" "$UPDATE_UNIT" "$STICK_UNIT" "$POLKIT_RULE" \
        "$RULES_DIR/99-companion-backlight.rules" "$RULES_DIR/99-companion-rfid.rules" \
        "$RULES_DIR/99-companion-usb-sticks.rules"
    rm -rf "$DROPIN_DIR" "$ETC" "$PREFIX" "$HELPERS"
    rmdir "$STICKS" 2>/dev/null || true
    systemctl enable getty@tty1.service >/dev/null 2>&1 || true
    file=$(cmdline_file)
    if [[ -n "$file" ]]; then
        cmdline_remove "$file" consoleblank vt.global_cursor_default >/dev/null
    fi
    if [[ -f "$GRUB_DROPIN" ]]; then
        rm -f "$GRUB_DROPIN"
        if command -v update-grub >/dev/null; then update-grub >/dev/null 2>&1 || true; fi
    fi
    if systemd_running; then
        systemctl daemon-reload
        udevadm control --reload-rules 2>/dev/null || true
    fi
    if getent passwd companion >/dev/null; then
        userdel companion
    fi
    if ((purge)); then
        rm -rf "$DATA"
        say "removed the companion, and its games in $DATA"
    else
        say "removed the companion; the games stay in $DATA (--purge deletes them)"
    fi
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    main "$@"
fi
