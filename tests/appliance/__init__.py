"""The appliance test (`python3 tasks.py appliance-test`, minutes, as root): deploy/install.sh
in a Debian arm64 chroot, then in a virtual machine. Not part of the normal test run."""
