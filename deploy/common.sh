# Shared by install.sh and readonly-root.sh (sourced, never run): messages, the platform check,
# and idempotent edits of the kernel command line and of KEY=VALUE files.
# shellcheck shell=bash

say() { printf '%s\n' "[companion] $*" >&2; }
die() { printf '%s\n' "[companion] error: $*" >&2; exit 1; }

# One field of an os-release file, unquoted ("" when absent). Read, never sourced: the file is
# data, and tests hand in their own through COMPANION_OS_RELEASE.
os_release_field() {
    local key=$1 file=$2 line value
    while IFS= read -r line || [[ -n "$line" ]]; do
        if [[ "$line" == "$key="* ]]; then
            value=${line#*=}
            value=${value#[\"\']}
            value=${value%[\"\']}
            printf '%s' "$value"
            return 0
        fi
    done <"$file"
}

# Refuse 32-bit systems and anything but Debian 12 (Raspberry Pi OS bookworm is Debian 12).
# COMPANION_ARCH, COMPANION_MACHINE and COMPANION_OS_RELEASE stand in for dpkg, uname and
# /etc/os-release in the tests.
check_platform() {
    local arch machine release id like codename version pretty
    arch=${COMPANION_ARCH:-$(dpkg --print-architecture)}
    machine=${COMPANION_MACHINE:-$(uname -m)}
    release=${COMPANION_OS_RELEASE:-/etc/os-release}
    case "$arch/$machine" in
        armhf/* | armel/* | i386/* | */armv6l | */armv7l | */armv8l)
            die "this is a 32-bit system ($arch, $machine). Kivy has no 32-bit ARM wheel;" \
                "install the 64-bit Raspberry Pi OS (Lite) and run this again." ;;
        arm64/* | amd64/*) ;;
        *) die "unsupported architecture '$arch': needs arm64 (Raspberry Pi) or amd64." ;;
    esac
    [[ -r "$release" ]] || die "cannot read $release: unsupported operating system."
    id=$(os_release_field ID "$release")
    like=$(os_release_field ID_LIKE "$release")
    codename=$(os_release_field VERSION_CODENAME "$release")
    version=$(os_release_field VERSION_ID "$release")
    pretty=$(os_release_field PRETTY_NAME "$release")
    if [[ "$id" != debian && "$id" != raspbian && " $like " != *" debian "* ]] \
        || [[ "$codename" != bookworm && "$version" != 12 ]]; then
        die "unsupported operating system '${pretty:-$id $version}': needs Raspberry Pi OS" \
            "(64-bit) bookworm or Debian 12."
    fi
}

# Set KEY=VALUE words on a one-line kernel command line (cmdline.txt): a word with the same key
# is replaced, otherwise the word is appended, so running it twice changes nothing. Prints
# "changed" when the file was rewritten.
cmdline_set() {
    local file=$1 want key word found
    shift
    local -a words new
    cmdline_read "$file"
    words=("${CMDLINE_WORDS[@]}")
    for want in "$@"; do
        key=${want%%=*}
        found=0
        new=()
        for word in "${words[@]}"; do
            if [[ "${word%%=*}" == "$key" ]]; then
                ((found)) || new+=("$want")
                found=1
            else
                new+=("$word")
            fi
        done
        ((found)) || new+=("$want")
        words=("${new[@]}")
    done
    cmdline_write "$file" "${words[@]}"
}

# Remove every word with one of the given keys (KEY or KEY=anything) from a cmdline.txt.
cmdline_remove() {
    local file=$1 key word drop
    shift
    local -a words=()
    cmdline_read "$file"
    for word in "${CMDLINE_WORDS[@]}"; do
        drop=0
        for key in "$@"; do
            [[ "${word%%=*}" == "$key" ]] && drop=1
        done
        ((drop)) || words+=("$word")
    done
    cmdline_write "$file" "${words[@]}"
}

cmdline_read() {
    local file=$1 lines
    [[ -f "$file" ]] || die "no kernel command line at $file"
    lines=$(grep -c . "$file" || true)
    # The Pi's firmware reads only the first line; a second one means someone else's format.
    ((lines <= 1)) || die "$file has $lines lines; the kernel command line must be one line"
    CMDLINE_OLD=$(tr -d '\n' <"$file")
    read -r -a CMDLINE_WORDS <<<"$CMDLINE_OLD" || true
}

cmdline_write() {
    local file=$1 line
    shift
    line="$*"
    [[ "$line" == "$CMDLINE_OLD" ]] && return 0
    replace_file "$file" "$line"$'\n'
}

# Write CONTENT to FILE unless it holds exactly that already; prints "changed" when written.
# Written beside and renamed: a power cut leaves the old file or the new, never half of one.
write_if_changed() {
    local file=$1 content=$2
    if [[ -f "$file" ]] && [[ "$(cat "$file")"$'\n' == "$content" ]]; then
        return 0
    fi
    replace_file "$file" "$content"
}

replace_file() {
    local file=$1 content=$2
    printf '%s' "$content" >"$file.companion-new"
    sync "$file.companion-new" 2>/dev/null || true
    mv -f "$file.companion-new" "$file"
    echo changed
}

# Set KEY=VALUE in a shell-style environment file, keeping its other lines. Prints "changed"
# when the file was rewritten.
env_set() {
    local file=$1 key=$2 value=$3 line done=0 content=""
    if [[ -f "$file" ]]; then
        while IFS= read -r line || [[ -n "$line" ]]; do
            if [[ "$line" == "$key="* ]]; then
                ((done)) && continue
                line="$key=$value"
                done=1
            fi
            content+="$line"$'\n'
        done <"$file"
    fi
    ((done)) || content+="$key=$value"$'\n'
    write_if_changed "$file" "$content"
}

# The value of KEY in an environment file ("" when absent).
env_get() {
    local file=$1 key=$2
    [[ -f "$file" ]] || return 0
    os_release_field "$key" "$file"
}

# The kernel command line file the boot firmware reads, or "" (plain Debian: GRUB).
cmdline_file() {
    if [[ -f /boot/firmware/cmdline.txt ]]; then
        echo /boot/firmware/cmdline.txt
    elif [[ -f /boot/cmdline.txt ]]; then
        echo /boot/cmdline.txt
    fi
}

# --- signed releases -------------------------------------------------------------------------
# A release folder (python3 tasks.py wheelhouse DIR --sign KEY) holds SHA256SUMS, the hash of
# every other file in it, and SHA256SUMS.sig, an Ed25519 signature of SHA256SUMS made with the
# project's release key. It is trusted when the signature matches one of the public keys
# (*.pub) in the trusted keys folder and every file matches its hash; a file SHA256SUMS does
# not list (a wheel pip would pick up) is refused too.
TRUSTED_KEYS_DIR=${COMPANION_SIGNING_KEYS:-/etc/companion/signing-keys}

# The key (path) that signed DIR's SHA256SUMS; fails, saying why, when none of KEYS did.
release_signer() {
    local dir=$1 keys_dir=$2 key
    local -a keys
    [[ -f "$dir/SHA256SUMS" ]] || { say "$dir has no SHA256SUMS: not a signed release."; return 1; }
    [[ -f "$dir/SHA256SUMS.sig" ]] \
        || { say "$dir is not signed (no SHA256SUMS.sig): refused."; return 1; }
    shopt -s nullglob
    keys=("$keys_dir"/*.pub)
    shopt -u nullglob
    ((${#keys[@]})) || { say "no trusted signing keys in $keys_dir: nothing can be checked."; return 1; }
    for key in "${keys[@]}"; do
        if openssl pkeyutl -verify -pubin -inkey "$key" -rawin -in "$dir/SHA256SUMS" \
            -sigfile "$dir/SHA256SUMS.sig" >/dev/null 2>&1; then
            printf '%s' "$key"
            return 0
        fi
    done
    say "the signature of $dir matches none of the trusted keys in $keys_dir: refused."
    return 1
}

# The files SHA256SUMS lists, one relative path a line; fails on a path that leaves the folder.
release_files() {
    local dir=$1 path
    while IFS= read -r path; do
        if [[ -z "$path" || "$path" == /* || "/$path/" == */../* ]]; then
            say "SHA256SUMS in $dir names a file outside the folder ('$path'): refused."
            return 1
        fi
        printf '%s\n' "$path"
    done < <(sed -E 's/^[0-9a-f]{64} [ *]//' "$dir/SHA256SUMS")
}

# Checks a release folder as above; says what is wrong and fails, changing nothing.
verify_release() {
    local dir=$1 keys_dir=${2:-$TRUSTED_KEYS_DIR} signer unlisted
    signer=$(release_signer "$dir" "$keys_dir") || return 1
    release_files "$dir" >/dev/null || return 1
    if ! (cd "$dir" && sha256sum --quiet --strict --check SHA256SUMS >&2); then
        say "files in $dir differ from what was signed (above): refused."
        return 1
    fi
    unlisted=$(cd "$dir" && comm -23 \
        <(find . -type f ! -name SHA256SUMS ! -name SHA256SUMS.sig -printf '%P\n' | LC_ALL=C sort) \
        <(release_files "$dir" | LC_ALL=C sort))
    if [[ -n "$unlisted" ]]; then
        say "files in $dir that were not signed: $(tr '\n' ' ' <<<"$unlisted")- refused."
        return 1
    fi
    say "signature and every file of $dir checked (key $(basename "$signer"))"
}
