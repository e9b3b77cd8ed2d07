"""Runs the chroot half, then the virtual-machine half when tests/appliance/vm.py exists."""

from __future__ import annotations

import importlib.util
import sys

from tests.appliance import chroot


def main() -> int:
    code = chroot.run()
    if importlib.util.find_spec("tests.appliance.vm") is None:
        print("vm: skipped (tests/appliance/vm.py is not on this branch)", flush=True)
        return code
    from tests.appliance import vm  # type: ignore[attr-defined,unused-ignore]

    return max(code, vm.run())


if __name__ == "__main__":
    sys.exit(main())
