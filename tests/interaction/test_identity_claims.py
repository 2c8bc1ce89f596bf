"""A claimed name against the face in view (in process, offline): perception's "Unknown" face cannot
take the name of someone with stored faces; without a camera the name is the identity (chat mode)."""

from __future__ import annotations

from common.clock import Clock
from common.config import load_settings
from common.messages import UserDetected, UserInput
from common.store import DataLayout, ProfileStore
from interaction.dialogue import DialogueManager

STRANGER = UserDetected(user_name="Unknown", confidence=40.0, user_id=None)


class Outbox:
    def __init__(self) -> None:
        self.sent: list = []

    def publish(self, spec, message) -> None:
        self.sent.append((spec.suffix, message))


def setup(tmp_path, with_face: bool = True) -> tuple[DialogueManager, Outbox, str, DataLayout]:
    layout = DataLayout(tmp_path)
    clock = Clock(layout.runtime_dir)
    store = ProfileStore(layout)
    maya = store.mint_user_id("Maya", clock.now())
    store.update(maya, {"user_name": "Maya", "location": "Geneva"}, clock.now())
    if with_face:
        layout.faces_dir(maya).mkdir(parents=True)
        (layout.faces_dir(maya) / "face_20260101_120000_abcd.jpg").write_bytes(b"\xff\xd8 a stored face")
    out = Outbox()
    settings = load_settings(environ={"NADINE_DATA_DIR": str(tmp_path)})
    return DialogueManager(settings, layout, clock, out, environ={}), out, maya, layout


def test_an_unrecognised_face_claiming_a_known_name_is_a_new_person(tmp_path):
    dm, out, maya, layout = setup(tmp_path)
    dm.on_user_detected(STRANGER)
    claim = dm.process_input(UserInput(text="Hello! My name is Maya."))
    assert claim.user_id != maya and claim.user_name == "Maya"
    assert "welcome back" not in claim.reply.lower() and "Geneva" not in claim.reply
    where = dm.process_input(UserInput(text="Where do I live?"))
    assert where.user_id == claim.user_id and "Geneva" not in where.reply
    infos = [m for s, m in out.sent if s == "face_recognition/user_info"]
    assert infos and {m.user_id for m in infos} == {claim.user_id}  # perception links the face to the new id
    assert ProfileStore(layout).load(maya).location == "Geneva"


def test_the_confirmation_path_is_checked_too(tmp_path):
    dm, _, maya, _ = setup(tmp_path)
    dm.on_user_detected(STRANGER)
    asked = dm.process_input(UserInput(text="Hi, I'm Maia."))
    assert asked.extra["pending_confirmation"]
    yes = dm.process_input(UserInput(text="Yes, that's me."))
    assert yes.user_id != maya and "Geneva" not in yes.reply


def test_without_a_camera_the_name_is_the_identity(tmp_path):
    dm, _, maya, _ = setup(tmp_path)  # no user_detected at all: chat mode
    claim = dm.process_input(UserInput(text="Hello! My name is Maya."))
    assert claim.user_id == maya and "welcome back" in claim.reply.lower()


def test_a_known_name_without_stored_faces_links_as_before(tmp_path):
    dm, _, maya, _ = setup(tmp_path, with_face=False)
    dm.on_user_detected(STRANGER)
    assert dm.process_input(UserInput(text="Hello! My name is Maya.")).user_id == maya
