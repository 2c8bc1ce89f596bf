"""Several robots on one secured broker: scripts/broker_credentials.sh with NADINE_ROBOT_IDS gives each
robot its own users and an ACL confined to <root>/<robot_id>/, so no robot reads or writes another's."""

from __future__ import annotations

import time

import pytest

from common import messages as m
from common import topics as t
from common.bus import Bus
from common.config import load_settings
from tests.reliability.secure_broker import SecureBroker
from tests.reliability.test_broker_security import affect, connect
from tests.support import Recorder, unique_root


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    root = unique_root()
    broker = SecureBroker(tmp_path_factory.mktemp("fleet-broker"), root, robots=("r1", "r2")).start()
    yield broker, root
    broker.stop()


def on_robot(made: list[Bus], broker: SecureBroker, user: str, topic_root: str, name: str | None = None) -> Bus:
    bus, ok = connect(made, name or user, broker.settings(user), topic_root)
    assert ok, f"{user} could not connect"
    return bus


def test_a_robot_neither_reads_nor_writes_another_robots_topics(fleet, buses):
    broker, root = fleet
    r1, r2 = f"{root}/r1", f"{root}/r2"
    operator_1 = on_robot(buses, broker, "operator-r1", r1)
    operator_2 = on_robot(buses, broker, "operator-r2", r2)
    perception_2 = on_robot(buses, broker, "perception-r2", r2)
    # robot 2's operator and perception try to listen in on robot 1's affect/state
    spy_operator = on_robot(buses, broker, "operator-r2", r1, name="spy")
    spied = Recorder(spy_operator, t.AFFECT_STATE)
    own_1, own_2 = Recorder(operator_1, t.AFFECT_STATE), Recorder(operator_2, t.AFFECT_STATE)
    interaction_1 = on_robot(buses, broker, "interaction-r1", r1)
    # robot 1's interaction tries to write into robot 2's tree
    forger = on_robot(buses, broker, "interaction-r1", r2, name="forger")
    time.sleep(0.3)

    interaction_1.publish(t.AFFECT_STATE, affect("robot 1's turn")).wait_for_publish(2)
    forger.publish(t.AFFECT_STATE, affect("forged into robot 2")).wait_for_publish(2)
    perception_2.publish(t.USER_DETECTED, m.UserDetected(user_name="Unknown", confidence=50.0, user_id=None))

    assert own_1.wait_for(lambda msg: msg.user_message == "robot 1's turn").intensity == 0.8
    time.sleep(0.5)
    assert [x.user_message for x in own_1.messages] == ["robot 1's turn"]
    assert own_2.messages == [] and spied.messages == []


def test_a_robot_id_moves_the_topic_root_and_names_the_broker_user():
    settings = load_settings(environ={"NADINE_ROBOT_ID": "r1", "NADINE_MQTT_PASSWORD_PERCEPTION": "x"},
                             process="perception")
    assert settings.common.topic_root == "nadine/r1" and settings.common.mqtt.username == "perception-r1"
    same = load_settings(environ={"NADINE_ROBOT_ID": "r1", "NADINE_TOPIC_ROOT": "nadine/r1"})
    assert same.common.topic_root == "nadine/r1"
    assert load_settings(environ={}).common.topic_root == "nadine" and load_settings(environ={}).common.robot_id is None
