#!/usr/bin/env bash
# The read-only root option: the root filesystem becomes a throw-away RAM overlay at each boot
# (overlayroot), and the games live on their own ext4 partition mounted at /var/lib/companion,
# the only place where changes survive. See deploy/README.md, "Read-only root".
set -euo pipefail
shopt -s inherit_errexit

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$HERE/common.sh"

DATA=/var/lib/companion
DEFAULT_LABEL=companion-data
# recurse=0: only / is overlaid. Plain overlayroot=tmpfs would overlay the data partition too,
# and every game played since boot would be gone at the next one.
OVERLAY_WORD=overlayroot=tmpfs:recurse=0
OVERLAY_CONF=/etc/overlayroot.local.conf
MOUNT_DROPIN=/etc/systemd/system/companion.service.d/data-partition.conf

usage() {
    cat <<'EOF'
Usage: sudo deploy/readonly-root.sh --enable (--data-device DEV | --label LABEL) [--format]
       sudo deploy/readonly-root.sh --disable
       deploy/readonly-root.sh --status

--enable   put the games on their own ext4 partition, mounted at /var/lib/companion, and make
           the root filesystem a RAM overlay from the next boot (everything else written is
           forgotten at each boot)
             --data-device DEV  the partition for the games, e.g. /dev/mmcblk0p3; an empty one
                                is formatted (ext4, label companion-data); one with a
                                filesystem is refused unless --format is given (erases it)
             --label LABEL      the partition labelled LABEL (already ext4), or the label to
                                give the one named by --data-device
--disable  make the root writable again from the next boot (install.sh updates need not);
           the data partition stays as it is
--status   say what is set up
EOF
}

main() {
    local action="" device="" label="" format=0
    while (($#)); do
        case "$1" in
            --enable) action=enable; shift ;;
            --disable) action=disable; shift ;;
            --status) action=status; shift ;;
            --data-device)
                [[ $# -ge 2 ]] || die "--data-device needs a partition, e.g. /dev/mmcblk0p3"
                device=$2; shift 2 ;;
            --label)
                [[ $# -ge 2 && "$2" =~ ^[A-Za-z0-9_-]{1,16}$ ]] \
                    || die "--label needs a name of 1 to 16 letters, digits, - or _"
                label=$2; shift 2 ;;
            --format) format=1; shift ;;
            -h | --help) usage; exit 0 ;;
            *) usage >&2; die "unknown option: $1" ;;
        esac
    done
    [[ -n "$action" ]] || { usage >&2; die "say --enable, --disable or --status"; }
    if [[ "$action" == status ]]; then
        status
        return 0
    fi
    check_platform
    ((EUID == 0)) || die "run it as root: sudo $0 $*"
    case "$action" in
        enable) enable "$device" "$label" "$format" ;;
        disable) disable ;;
    esac
}

root_is_overlay() {
    [[ "$(findmnt -n -o FSTYPE / 2>/dev/null || true)" == overlay ]]
}

enable() {
    local device=$1 label=$2 format=$3 file changed
    root_is_overlay && die "the overlay is already active; --disable and reboot first to change it."
    [[ -n "$device" || -n "$label" ]] || die "--enable needs --data-device DEV or --label LABEL"
    [[ -n "$label" ]] || label=$DEFAULT_LABEL
    if [[ -z "$device" ]]; then
        device=$(blkid -L "$label" 2>/dev/null || true)
        [[ -n "$device" ]] || die "no partition is labelled '$label'; name one with --data-device"
    fi
    prepare_partition "$device" "$label" "$format"
    move_data_onto "$device"

    changed=$(fstab_set /etc/fstab "$label")
    [[ -z "$changed" ]] || say "/etc/fstab: LABEL=$label on $DATA"
    # Without the partition the app must not start: it would save into the overlay, in RAM.
    mkdir -p "$(dirname "$MOUNT_DROPIN")"
    printf '%s\n' "# Written by deploy/readonly-root.sh: no games saved into the RAM overlay." \
        "[Unit]" "RequiresMountsFor=$DATA" >"$MOUNT_DROPIN"
    if [[ -d /run/systemd/system ]]; then
        systemctl daemon-reload
    fi
    findmnt -n "$DATA" >/dev/null || mount "$DATA"

    # overlayroot's script in the initramfs runs grep, which only busybox puts there: without
    # it the script fails ("grep: not found") and the root stays writable.
    local package missing=()
    for package in overlayroot busybox; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$package")
    done
    if ((${#missing[@]})); then
        say "installing ${missing[*]}"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            "${missing[@]}" >/dev/null
    fi
    file=$(cmdline_file)
    if [[ -n "$file" ]]; then
        changed=$(cmdline_set "$file" "$OVERLAY_WORD")
        [[ -z "$changed" ]] || say "kernel command line in $file: $OVERLAY_WORD"
        # overlayroot runs in the initramfs; Raspberry Pi OS bookworm loads one when asked to.
        local config
        config=$(dirname "$file")/config.txt
        if [[ -f "$config" ]] && ! grep -q '^auto_initramfs=1' "$config"; then
            printf '%s\n' "auto_initramfs=1" >>"$config"
        fi
    else
        printf '%s\n' "overlayroot=\"tmpfs:recurse=0\"" >"$OVERLAY_CONF"
        say "overlay set in $OVERLAY_CONF"
    fi
    # The overlay is set up by the initramfs: without overlayroot's hook in it the next boot is
    # an ordinary writable one. Rebuilding it runs a small program per kernel module, which
    # takes a minute or more on a Pi.
    say "rebuilding the initramfs with overlayroot in it (a minute or more)"
    local log
    log=$(mktemp)
    if ! update-initramfs -u >"$log" 2>&1; then
        tail -n 20 "$log" >&2
        rm -f "$log"
        die "update-initramfs failed (above), so the root stays writable at the next boot; fix \
it and run: sudo update-initramfs -u"
    fi
    rm -f "$log"
    say "done: reboot, and the root filesystem is a RAM overlay; games stay on $device."
    say "updates (install.sh, or from a stick) need no --disable: the installer writes them onto the card too."
}

# Formats the partition only when it is empty, or when --format says its contents may go.
prepare_partition() {
    local device=$1 label=$2 format=$3 fstype current_label where
    [[ -b "$device" ]] || die "$device is not a block device"
    where=$(findmnt -n -o TARGET -S "$device" 2>/dev/null || true)
    if [[ -n "$where" && "$where" != "$DATA" ]]; then
        die "$device is mounted on $where; choose a partition that is not in use"
    fi
    fstype=$(blkid -o value -s TYPE "$device" 2>/dev/null || true)
    current_label=$(blkid -o value -s LABEL "$device" 2>/dev/null || true)
    if [[ "$fstype" == ext4 && "$current_label" == "$label" ]] && ((!format)); then
        say "$device is already the ext4 data partition '$label'"
        return 0
    fi
    if [[ -n "$fstype" ]] && ((!format)); then
        [[ -z "$current_label" ]] || fstype+=" (label \"$current_label\")"
        die "$device already holds a $fstype filesystem; --format erases it (and all on it)"
    fi
    [[ -z "$where" ]] || umount "$device"
    say "formatting $device as ext4, label $label"
    mkfs.ext4 -q -F -L "$label" "$device"
}

# The games already in /var/lib/companion go onto the partition before it is mounted over them.
move_data_onto() {
    local device=$1 staging
    findmnt -n -S "$device" "$DATA" >/dev/null 2>&1 && return 0
    if [[ -d /run/systemd/system ]]; then
        systemctl stop companion.service 2>/dev/null || true
    fi
    staging=$(mktemp -d)
    mount "$device" "$staging"
    if [[ -d "$DATA" ]] && [[ -z "$(find "$staging" -mindepth 1 -maxdepth 1 ! -name lost+found)" ]]
    then
        cp -a "$DATA/." "$staging/"
        say "copied what was in $DATA onto $device"
    fi
    if getent passwd companion >/dev/null; then
        chown companion:companion "$staging"
    fi
    chmod 0700 "$staging"
    umount "$staging"
    rmdir "$staging"
}

# One fstab line mounts LABEL at /var/lib/companion; any other line for that mount point goes.
# errors=remount-ro: a damaged data partition turns read-only, which the app reports and
# survives, instead of writing on. SQLite fsyncs each saved action itself, so commit= only
# bounds how long file metadata may wait. Prints "changed" when the file was rewritten.
fstab_set() {
    local file=$1 label=$2 line fields content="" wanted
    wanted="LABEL=$label $DATA ext4 defaults,noatime,commit=5,errors=remount-ro,nofail 0 2"
    if [[ -f "$file" ]]; then
        while IFS= read -r line || [[ -n "$line" ]]; do
            read -r -a fields <<<"$line" || true
            if [[ "${fields[0]:-}" != \#* && "${fields[1]:-}" == "$DATA" ]]; then
                continue
            fi
            content+="$line"$'\n'
        done <"$file"
    fi
    content+="$wanted"$'\n'
    write_if_changed "$file" "$content"
}

disable() {
    local file changed
    file=$(cmdline_file)
    if [[ -n "$file" ]]; then
        changed=$(cmdline_remove "$file" overlayroot)
        [[ -z "$changed" ]] || say "removed overlayroot from $file"
    fi
    if [[ -f "$OVERLAY_CONF" ]]; then
        # While the overlay is up, /etc is in RAM: the file to remove is on the disk below.
        if root_is_overlay && command -v overlayroot-chroot >/dev/null; then
            overlayroot-chroot rm -f "$OVERLAY_CONF"
        else
            rm -f "$OVERLAY_CONF"
        fi
    fi
    say "done: after the next reboot the root filesystem is writable again."
}

status() {
    local file
    if root_is_overlay; then say "now: the root is a RAM overlay"; else say "now: the root is writable"; fi
    file=$(cmdline_file)
    if [[ -n "$file" ]] && grep -qw "overlayroot=[^ ]*" "$file"; then
        say "next boot: $(grep -o 'overlayroot=[^ ]*' "$file")"
    elif [[ -f "$OVERLAY_CONF" ]]; then
        say "next boot: overlay set in $OVERLAY_CONF"
    else
        say "next boot: no overlay"
    fi
    if findmnt -n "$DATA" >/dev/null 2>&1; then
        say "data: $(findmnt -n -o SOURCE,FSTYPE,OPTIONS "$DATA")"
    else
        say "data: $DATA is not a separate partition"
    fi
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    main "$@"
fi
