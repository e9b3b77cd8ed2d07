#!/usr/bin/env bash
# companion-update.service's program: installs the update the app asked for.
#   update-from-stick.sh REQUEST_FILE
# REQUEST_FILE (written by the app, companion/updates.py) names a companion-update/ folder on a
# stick. Only the files its signed SHA256SUMS lists are copied off the stick, into a folder of
# root's (the stick may change or go away meanwhile, and nothing unlisted comes along); the copy
# is checked against the trusted keys, then its own deploy/install.sh installs it with
# --require-signature: the same health check and automatic roll-back as any update, and on the
# read-only root the installer also writes the result onto the card.
set -euo pipefail
shopt -s inherit_errexit

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$HERE/common.sh"

UPDATE_FOLDER_NAME=companion-update
# Room for the copy: /var/tmp is on the card (or, on the read-only root, in the RAM overlay).
STAGING_PARENT=${COMPANION_STAGING:-/var/tmp}

main() {
    local request=${1:-} folder staging path
    [[ -n "$request" ]] || die "usage: $0 REQUEST_FILE"
    [[ -f "$request" ]] || die "no update was asked for ($request is missing)"
    folder=$(head -n 1 "$request")
    # One request, one attempt: a failed update is not retried at the next start.
    rm -f "$request"
    [[ "$folder" == /* && -d "$folder" ]] || die "the update folder '$folder' is not there"
    folder=$(realpath "$folder")
    [[ "$(basename "$folder")" == "$UPDATE_FOLDER_NAME" ]] \
        || die "'$folder' is not a $UPDATE_FOLDER_NAME folder"
    say "update requested from $folder"

    staging=$(mktemp -d "$STAGING_PARENT/companion-update.XXXXXX")
    # shellcheck disable=SC2064 # $staging is meant to be expanded now
    trap "rm -rf '$staging'" EXIT
    cp "$folder/SHA256SUMS" "$folder/SHA256SUMS.sig" "$staging/" 2>/dev/null \
        || die "$folder is not signed (no SHA256SUMS or SHA256SUMS.sig): refused."
    # The signature first: until it is good, the list of files is not trusted either.
    release_signer "$staging" "$TRUSTED_KEYS_DIR" >/dev/null || exit 1
    while IFS= read -r path; do
        [[ -f "$folder/$path" ]] || die "$path is missing in $folder: refused."
        install -D -m 0644 "$folder/$path" "$staging/$path"
    done < <(release_files "$staging")
    verify_release "$staging" || exit 1
    [[ -f "$staging/checkout/deploy/install.sh" ]] \
        || die "the update carries no checkout/deploy/install.sh: refused."
    say "installing $(head -n 1 "$staging/VERSION" 2>/dev/null || echo '?') from the stick"
    bash "$staging/checkout/deploy/install.sh" --source "$staging" --require-signature
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    main "$@"
fi
