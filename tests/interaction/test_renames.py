"""A known person who says their name is otherwise ("call me X", "my real name is X", "it's X, not Y",
"actually I'm X") keeps their profile under the new name; a name another stored person has is never
taken on without a clear yes (in process, offline, real files in a temporary data root)."""

from __future__ import annotations

import json

import pytest

from common.clock import Clock
from common.config import load_settings
from common.messages import UserDetected, UserInput
from common.store import DataLayout, ProfileStore
from interaction.dialogue import DialogueManager
from interaction.offline.name_claims import read_name_claim


@pytest.mark.parametrize(("text", "name"), [
    ("Actually, just call me Bobby, everyone does.", "Bobby"),
    ("You can call me Kat from now on.", "Kat"),
    ("I'd like you to call me Tomek.", "Tomek"),
    ("please call me Ines", "Ines"),
    ("I'd rather be called Bea.", "Bea"),
])
def test_asking_to_be_called_a_name_is_a_request(text, name):
    claim = read_name_claim(text)
    assert claim is not None and claim.name == name and claim.request


@pytest.mark.parametrize(("text", "name", "disowned"), [
    ("My real name is Robert.", "Robert", None),
    ("my actual name is jan", "Jan", None),
    ("Actually, I'm Oksana.", "Oksana", None),
    ("No, I'm Anna, not Kasia.", "Anna", "Kasia"),
    ("It's Katarzyna actually, not Kasia.", "Katarzyna", "Kasia"),
    ("Sorry, my name is Marek, not Marcin.", "Marek", "Marcin"),
])
def test_a_name_said_as_a_correction(text, name, disowned):
    claim = read_name_claim(text)
    assert claim is not None and claim.name == name and claim.corrects and not claim.request
    assert claim.disowned == disowned


@pytest.mark.parametrize("text", [
    "Hi, I'm Tomas.", "My name is Greta.", "Hello, it's Oona.",
])
def test_a_plain_introduction_corrects_nothing(text):
    claim = read_name_claim(text)
    assert claim is not None and not claim.request and not claim.corrects


@pytest.mark.parametrize("text", [
    "My middle name is Ann.", "My last name is Kowalski.", "My nickname at school was Bobby.",
    "Call me when you land.", "Everyone at the depot calls me Bobby.", "No wait, it's the 13th of April, not the 3rd.",
    "Actually it's 241, not 214.", "What would you call me?", "I'm actually quite tired.",
])
def test_other_names_and_values_are_no_claim(text):
    claim = read_name_claim(text)
    assert claim is None or not (claim.request or claim.corrects)


class Outbox:
    def __init__(self) -> None:
        self.sent: list = []

    def publish(self, spec, message) -> None:
        self.sent.append((spec.suffix, message))


def setup(tmp_path):
    layout = DataLayout(tmp_path)
    clock = Clock(layout.runtime_dir)
    settings = load_settings(environ={"NADINE_DATA_DIR": str(tmp_path)})
    out = Outbox()
    return DialogueManager(settings, layout, clock, out, environ={}), out, layout


def ids(layout: DataLayout) -> dict[str, str]:
    return json.loads(layout.user_ids_file.read_text()) if layout.user_ids_file.exists() else {}


def stored_person(layout: DataLayout, name: str, **facts) -> str:
    store = ProfileStore(layout)
    clock = Clock(layout.runtime_dir)
    uid = store.mint_user_id(name, clock.now())
    store.update(uid, {"user_name": name, **facts}, clock.now())
    return uid


@pytest.mark.parametrize(("intro", "rename", "new"), [
    ("Hey, I'm Kasia.", "It's Katarzyna actually, not Kasia.", "Katarzyna"),
    ("Hi, my name is Bob. I live in Leeds.", "Actually, please call me Robbie.", "Robbie"),
    ("hello, I'm Jo", "My real name is Joanna.", "Joanna"),
    ("Hi there, I'm Sam.", "Oh sorry, I'm Samira, not Sam.", "Samira"),
    ("hi, Witek here", "Actually my proper name is Wiktor.", "Wiktor"),
])
def test_chat_rename_keeps_the_profile_under_the_new_name(tmp_path, intro, rename, new):
    dm, out, layout = setup(tmp_path)
    first = dm.process_input(UserInput(text=intro))
    turn = dm.process_input(UserInput(text=rename))
    assert turn.user_id == first.user_id and turn.user_name == new
    assert new in turn.reply and "nice to meet you" not in turn.reply.lower()
    assert ids(layout) == {first.user_id: new}  # no second profile
    assert ProfileStore(layout).load(first.user_id).user_name == new
    infos = [m for s, m in out.sent if s == "face_recognition/user_info"]
    assert infos[-1].user_id == first.user_id and infos[-1].user_name == new
    dm.process_input(UserInput(text="Bye!"))
    back = dm.process_input(UserInput(text=f"Hi, I'm {new}."))
    assert back.user_id == first.user_id and "welcome back" in back.reply.lower()


def robert_in_view(tmp_path):
    """Robert, a plumber, recognised by his face."""
    dm, _, layout = setup(tmp_path)
    robert = stored_person(layout, "Robert", current_position="plumber")
    dm.on_user_detected(UserDetected(user_name="Robert", confidence=92.0, user_id=robert))
    return dm, layout, robert


@pytest.mark.parametrize("rename", ["Just call me Bobby, everyone does.", "You can call me Bobby."])
def test_a_recognised_face_is_renamed(tmp_path, rename):
    dm, layout, robert = robert_in_view(tmp_path)
    turn = dm.process_input(UserInput(text=rename))
    assert turn.user_id == robert and turn.user_name == "Bobby" and "Bobby" in turn.reply
    assert ids(layout) == {robert: "Bobby"}
    profile = ProfileStore(layout).load(robert)
    assert profile.user_name == "Bobby" and profile.current_position == "plumber"
    dm.on_user_detected(UserDetected(user_name=None, confidence=0.0, user_id=None))
    dm.close_session("left")
    dm.on_user_detected(UserDetected(user_name="Bobby", confidence=92.0, user_id=robert))
    hello = dm.process_input(UserInput(text="Hello again."))
    assert hello.user_name == "Bobby" and "Bobby" in hello.reply and "Robert" not in hello.reply


def test_a_face_disowning_its_name_is_someone_else_as_before(tmp_path):
    """Greeted by face as Robert, "No, I'm Anna, not Robert": the face may have been taken for
    someone else; Robert's profile is never handed over (the reference's identity conflict)."""
    dm, _, layout = setup(tmp_path)
    robert = stored_person(layout, "Robert")
    dm.on_user_detected(UserDetected(user_name="Robert", confidence=92.0, user_id=robert))
    turn = dm.process_input(UserInput(text="No, I'm Anna, not Robert."))
    assert turn.user_id != robert and ProfileStore(layout).load(robert).user_name == "Robert"


@pytest.mark.parametrize(("switch", "answer"), [
    ("From now on call me Lucia.", "No."),
    ("Actually, I'm Lucia.", "no it isn't"),
    ("I'm Lucia.", "Hmm, not really."),
    ("My real name is Lucia.", "absolutely not"),
    ("you know what, call me Lucia", "nope"),  # read by the memory classifier as "what do you know about me"
])
def test_chat_switch_to_another_stored_person_needs_a_yes(tmp_path, switch, answer):
    dm, _, layout = setup(tmp_path)
    lucia = stored_person(layout, "Lucia")
    mateo = dm.process_input(UserInput(text="Hello, I'm Mateo."))
    asked = dm.process_input(UserInput(text=switch))
    assert asked.user_id == mateo.user_id and asked.user_name == "Mateo"
    assert asked.extra["pending_confirmation"] and "Lucia" in asked.reply
    no = dm.process_input(UserInput(text=answer))
    if no.extra["pending_confirmation"]:  # unclear: asked once more, still nobody linked
        assert no.user_id == mateo.user_id
        no = dm.process_input(UserInput(text="No."))
    assert no.user_id == mateo.user_id and no.user_name == "Mateo" and not no.extra["pending_confirmation"]
    assert ids(layout) == {lucia: "Lucia", mateo.user_id: "Mateo"}  # nobody renamed, nobody new


def test_chat_switch_to_another_stored_person_on_a_clear_yes(tmp_path):
    dm, _, layout = setup(tmp_path)
    lucia = stored_person(layout, "Lucia", location="Valencia")
    dm.process_input(UserInput(text="Hello, I'm Mateo."))
    dm.process_input(UserInput(text="Actually, I'm Lucia."))
    yes = dm.process_input(UserInput(text="Yes, that's me."))
    assert yes.user_id == lucia and yes.user_name == "Lucia"


def test_a_rename_close_to_another_name_and_declined_is_a_rename(tmp_path):
    """Mateo asks to be called Lucy while a Lucia is stored: asked about her; on no, he is Lucy."""
    dm, _, layout = setup(tmp_path)
    lucia = stored_person(layout, "Lucia")
    mateo = dm.process_input(UserInput(text="Hello, I'm Mateo."))
    asked = dm.process_input(UserInput(text="Please call me Lucy."))
    assert asked.extra["pending_confirmation"]
    no = dm.process_input(UserInput(text="No, I'm not her."))
    assert no.user_id == mateo.user_id and no.user_name == "Lucy"
    assert ids(layout) == {lucia: "Lucia", mateo.user_id: "Lucy"}


@pytest.mark.parametrize("said", ["Honestly, most people call me Roz.", "My friends call me Rozzie."])
def test_what_others_call_a_known_person_makes_no_second_profile(tmp_path, said):
    dm, _, layout = setup(tmp_path)
    first = dm.process_input(UserInput(text="Good evening! I'm Rosalind and I keep bees near Bath."))
    turn = dm.process_input(UserInput(text=said))
    assert turn.user_id == first.user_id and turn.user_name == "Rosalind" and "nice to meet" not in turn.reply.lower()
    assert ids(layout) == {first.user_id: "Rosalind"}


def test_a_chat_opening_with_a_stored_name_links_as_before(tmp_path):
    """Without a camera the name given at the start is the identity (the reference's chat mode)."""
    dm, _, layout = setup(tmp_path)
    lucia = stored_person(layout, "Lucia")
    assert dm.process_input(UserInput(text="Hi, I'm Lucia.")).user_id == lucia


@pytest.mark.parametrize("claim", ["Actually, I'm Bobby.", "My real name is Bobby."])
def test_a_recognised_face_that_says_its_name_is_another_is_a_new_person(tmp_path, claim):
    """The face may have been taken for someone else's: Robert's memories stay Robert's."""
    dm, layout, robert = robert_in_view(tmp_path)
    turn = dm.process_input(UserInput(text=claim))
    assert turn.user_id != robert and turn.user_name == "Bobby"
    assert ids(layout) == {robert: "Robert", turn.user_id: "Bobby"}
    assert ProfileStore(layout).load(turn.user_id).current_position is None


@pytest.mark.parametrize(("intro", "respelt", "new"), [
    ("hi there, I'm Katrin", "oops no, it's Kathrin with an h, my phone changed it", "Kathrin"),
    ("Hello! I'm Stefan.", "Sorry, I'm Stephan with ph, the spell checker did that.", "Stephan"),
])
def test_a_name_respelt_right_after_it_was_given_is_taken(tmp_path, intro, respelt, new):
    """The name given a turn ago in this conversation, put right by its spelling, is plainly told: no
    "is your name ...?", and the next turn is heard as what it tells."""
    dm, _, layout = setup(tmp_path)
    first = dm.process_input(UserInput(text=intro))
    turn = dm.process_input(UserInput(text=respelt))
    assert not turn.extra["pending_confirmation"] and turn.user_id == first.user_id and turn.user_name == new
    assert ids(layout) == {first.user_id: new}
    told = dm.process_input(UserInput(text="I work as a tram driver in Gdansk."))
    assert told.user_id == first.user_id and not told.extra["pending_confirmation"]
    profile = ProfileStore(layout).load(first.user_id)
    assert profile.user_name == new and profile.location == "Gdansk" and profile.current_position == "tram driver"


def test_a_close_name_from_someone_known_before_this_conversation_is_still_asked(tmp_path):
    """Known from an earlier conversation, a name close to the one held may be someone else's: asked."""
    dm, _, layout = setup(tmp_path)
    stored_person(layout, "Katrin")
    dm.process_input(UserInput(text="Hi, I'm Katrin."))
    turn = dm.process_input(UserInput(text="Sorry, it's Kathrin actually."))
    assert turn.extra["pending_confirmation"]


@pytest.mark.parametrize("request_", ["Please call me Dr. Vogel.", "I'd rather be called Dr. Vogel, if that's ok."])
def test_a_title_asked_for_is_how_they_are_addressed_not_a_new_name(tmp_path, request_):
    """Henrike Vogel asks to be addressed with her title and surname: she stays Henrike Vogel, and the
    replies call her Dr. Vogel."""
    dm, _, layout = setup(tmp_path)
    first = dm.process_input(UserInput(text="Good afternoon, I'm Henrike Vogel and I tune pianos."))
    turn = dm.process_input(UserInput(text=request_))
    assert turn.user_id == first.user_id and turn.user_name == "Henrike Vogel" and "Dr. Vogel" in turn.reply
    profile = ProfileStore(layout).load(first.user_id)
    assert profile.user_name == "Henrike Vogel" and profile.addressed_as == "Dr. Vogel"
    assert ids(layout) == {first.user_id: "Henrike Vogel"}
    assert "Dr. Vogel" in dm.process_input(UserInput(text="Bye for now!")).reply


def test_asking_to_be_called_by_the_first_name_again_drops_the_title(tmp_path):
    dm, _, layout = setup(tmp_path)
    first = dm.process_input(UserInput(text="Good afternoon, I'm Henrike Vogel and I tune pianos."))
    dm.process_input(UserInput(text="Please call me Dr. Vogel."))
    turn = dm.process_input(UserInput(text="Actually, just call me Henrike."))
    assert turn.user_name == "Henrike Vogel" and "Henrike" in turn.reply and "Dr. Vogel" not in turn.reply
    assert ProfileStore(layout).load(first.user_id).user_name == "Henrike Vogel"
    assert "Dr." not in dm.process_input(UserInput(text="Bye for now!")).reply
