#!/usr/bin/env bash
# Mounts and unmounts one USB stick for the table companion (companion-stick@.service runs it):
#   stick-mount.sh mount sdb1     mount /dev/sdb1 at /media/companion/<its label, or sdb1>
#   stick-mount.sh unmount sdb1   unmount it and remove the folder
# The files belong to the app's user; nothing on the stick can be run (noexec, nosuid, nodev).
set -euo pipefail
shopt -s inherit_errexit

say() { printf '%s\n' "[companion-stick] $*" >&2; }
die() { printf '%s\n' "[companion-stick] error: $*" >&2; exit 1; }

# COMPANION_STICKS and COMPANION_STICK_STATE stand in for the two folders in the tests.
STICKS=${COMPANION_STICKS:-/media/companion}
# Which folder each stick went to, so it can be unmounted after the device itself is gone.
STATE=${COMPANION_STICK_STATE:-/run/companion-sticks}
USER_NAME=companion

# A folder name from the stick's label: letters, digits, space, - and _ kept, the rest dropped;
# the kernel's name for a stick without a usable label.
folder_name() {
    local label=$1 name=$2 clean
    clean=$(printf '%s' "$label" | LC_ALL=C tr -cd 'A-Za-z0-9 _-' | sed 's/^ *//; s/ *$//')
    printf '%s' "${clean:-$name}"
}

# The mount options of a file system a stick carries: the app's user owns every file (these
# file systems keep no owners), private to it, and written out without waiting (flush), as a
# stick is pulled without warning.
mount_options() {
    local fstype=$1 uid gid common
    uid=$(id -u "$USER_NAME")
    gid=$(id -g "$USER_NAME")
    common="noexec,nosuid,nodev,noatime,uid=$uid,gid=$gid"
    case "$fstype" in
        vfat) printf '%s' "$common,umask=0077,shortname=mixed,utf8,flush" ;;
        exfat | ntfs | ntfs3) printf '%s' "$common,umask=0077" ;;
        *) return 1 ;;
    esac
}

do_mount() {
    local name=$1 device=/dev/$1 fstype label folder options
    [[ -b "$device" ]] || die "$device is not a block device"
    fstype=$(blkid -o value -s TYPE "$device" 2>/dev/null || true)
    label=$(blkid -o value -s LABEL "$device" 2>/dev/null || true)
    options=$(mount_options "$fstype") || die "$device holds '$fstype', not a stick's file system"
    # NTFS through the kernel's own driver (ntfs3); blkid calls it ntfs.
    [[ "$fstype" == ntfs ]] && fstype=ntfs3
    folder=$STICKS/$(folder_name "$label" "$name")
    # Two sticks with one label: the second gets its kernel name added.
    if mountpoint -q "$folder"; then
        folder+="-$name"
    fi
    install -d -m 0755 "$STICKS"
    mkdir -p "$folder"
    if ! mount -t "$fstype" -o "$options" "$device" "$folder"; then
        rmdir "$folder" 2>/dev/null || true
        die "could not mount $device ($fstype)"
    fi
    mkdir -p "$STATE"
    printf '%s\n' "$folder" >"$STATE/$name"
    say "mounted $device ($fstype${label:+, \"$label\"}) at $folder"
}

do_unmount() {
    local name=$1 folder
    [[ -f "$STATE/$name" ]] || return 0
    folder=$(cat "$STATE/$name")
    if mountpoint -q "$folder"; then
        # Lazy: a pulled stick has nothing left to write to, and a file the app still holds
        # open must not keep the folder mounted.
        umount -l "$folder" || die "could not unmount $folder"
    fi
    rmdir "$folder" 2>/dev/null || true
    rm -f "$STATE/$name"
    say "unmounted $folder"
}

main() {
    [[ $# -eq 2 && "$2" =~ ^[a-z][a-z0-9]*$ ]] || die "usage: $0 mount|unmount <kernel name, e.g. sdb1>"
    case "$1" in
        mount) do_mount "$2" ;;
        unmount) do_unmount "$2" ;;
        *) die "usage: $0 mount|unmount <kernel name, e.g. sdb1>" ;;
    esac
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    main "$@"
fi
