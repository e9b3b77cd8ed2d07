"""Fixtures for the reader tests: emulators and serial ports that are always closed, and
Adafruit's PN532 client made importable without Blinka (the CircuitPython hardware layer)."""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import serial

from companion.reader.emulator_pty import ReaderEmulator

MakeEmulator = Callable[..., ReaderEmulator]
OpenSerial = Callable[..., serial.Serial]


@pytest.fixture
def make_emulator() -> Iterator[MakeEmulator]:
    """Start emulators (same arguments as ReaderEmulator); all are closed after the test."""
    started: list[ReaderEmulator] = []

    def make(family: str, **options: Any) -> ReaderEmulator:
        emulator = ReaderEmulator(family, **options)
        emulator.start()
        started.append(emulator)
        return emulator

    yield make
    for emulator in started:
        emulator.close()


@pytest.fixture
def open_serial() -> Iterator[OpenSerial]:
    """Open pyserial ports (same arguments as serial.Serial); all are closed after the test."""
    opened: list[serial.Serial] = []

    def open_port(*args: Any, **kwargs: Any) -> serial.Serial:
        port = serial.Serial(*args, **kwargs)
        opened.append(port)
        return port

    yield open_port
    for port in opened:
        port.close()


def _blinka_stubs() -> dict[str, types.ModuleType]:
    """Just enough of CircuitPython's modules for adafruit_pn532 to import: `const` and the
    names its annotations and reset-pin code refer to. A serial.Serial stands in for busio.UART."""
    micropython = types.ModuleType("micropython")
    micropython.const = lambda value: value  # type: ignore[attr-defined]
    digitalio = types.ModuleType("digitalio")
    digitalio.Direction = types.SimpleNamespace(INPUT=0, OUTPUT=1)  # type: ignore[attr-defined]
    digitalio.DigitalInOut = object  # type: ignore[attr-defined]
    busio = types.ModuleType("busio")
    busio.UART = object  # type: ignore[attr-defined]
    circuitpython_typing = types.ModuleType("circuitpython_typing")
    circuitpython_typing.ReadableBuffer = bytes  # type: ignore[attr-defined]
    return {module.__name__: module
            for module in (micropython, digitalio, busio, circuitpython_typing)}


@pytest.fixture(scope="session")
def adafruit_pn532_uart() -> Any:
    """adafruit_pn532.uart.PN532_UART, imported with the Blinka stubs in place."""
    with pytest.MonkeyPatch.context() as patch:
        for name, module in _blinka_stubs().items():
            patch.setitem(sys.modules, name, module)
        from adafruit_pn532.uart import PN532_UART
    return PN532_UART
