"""Robot drivers: where joint frames go. `simulated` (default) logs them; `serial` writes the robot's
servo packets. Unlike the reference, nothing opens a serial port unless the serial driver is chosen
and configured, so control starts on any machine.
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod

from common.config.control_settings import DriverSettings
from control.joints import JOINTS

log = logging.getLogger("nadine.control.driver")

PACKET_HEADER = 0xFF


class DriverError(RuntimeError):
    """The driver cannot start; the message says why and what to change."""


class RobotDriver(ABC):
    name: str

    def start(self) -> None:  # noqa: B027 - most drivers need no start-up
        pass

    @abstractmethod
    def send(self, frame: dict[str, float]) -> None:
        """One frame: joint name -> value in the joint's units (already within its range)."""

    def close(self) -> None:  # noqa: B027
        pass


class SimulatedDriver(RobotDriver):
    """Logs the joints that changed, at most `log_rate_hz` lines per second (changes in between are
    folded into the next line, so the log shows every joint's latest target)."""

    name = "simulated"

    def __init__(self, settings: DriverSettings) -> None:
        self._min_gap_s = 1.0 / settings.log_rate_hz
        self._last_log = 0.0
        self._logged: dict[str, float] = {}
        self.frames = 0

    def send(self, frame: dict[str, float]) -> None:
        self.frames += 1
        now = time.monotonic()
        if now - self._last_log < self._min_gap_s:
            return
        changed = {k: v for k, v in frame.items() if k not in self._logged or abs(self._logged[k] - v) > 0.05}
        if not changed:
            return
        self._last_log = now
        self._logged.update(changed)
        log.info("joints %s", " ".join(f"{k}={v:.2f}" for k, v in changed.items()))


class SerialDriver(RobotDriver):
    """One packet per frame: header byte, then one byte per joint (its range mapped onto 0..254)."""

    name = "serial"

    def __init__(self, settings: DriverSettings) -> None:
        if not settings.serial_port:
            raise DriverError(
                "the serial robot driver needs a port: set control.driver.serial_port (NADINE_SERIAL_PORT), "
                "e.g. /dev/ttyUSB0, or use control.driver.kind=simulated (NADINE_ROBOT_DRIVER=simulated) "
                "without the robot"
            )
        self.port = settings.serial_port
        self.baud = settings.baud
        self._serial = None

    def start(self) -> None:
        try:
            import serial  # type: ignore[import-not-found]
        except ImportError:
            raise DriverError(
                "the serial robot driver needs pyserial, which is not installed: "
                ".venv/bin/pip install pyserial (or use NADINE_ROBOT_DRIVER=simulated)"
            ) from None
        try:
            self._serial = serial.Serial(self.port, self.baud, timeout=0.1, write_timeout=0.1)
        except (serial.SerialException, OSError) as exc:
            raise DriverError(f"cannot open serial port {self.port}: {exc}") from None
        log.info("serial driver on %s at %d baud", self.port, self.baud)

    @staticmethod
    def packet(frame: dict[str, float]) -> bytes:
        body = bytearray([PACKET_HEADER])
        for joint in JOINTS:
            value = joint.clamp(frame.get(joint.name, joint.rest))
            body.append(round((value - joint.low) / (joint.high - joint.low) * 254))
        return bytes(body)

    def send(self, frame: dict[str, float]) -> None:
        if self._serial is not None:
            self._serial.write(self.packet(frame))

    def close(self) -> None:
        if self._serial is not None:
            self._serial.close()
            self._serial = None


DRIVERS: dict[str, type[RobotDriver]] = {"simulated": SimulatedDriver, "serial": SerialDriver}


def make_driver(settings: DriverSettings) -> RobotDriver:
    driver = DRIVERS[settings.kind](settings)  # type: ignore[call-arg]
    driver.start()
    return driver
