"""Who the speaker is, against what they are (offline, without a camera): a word after "I'm" that
describes them (a diet, a condition, a faith, a people, a kind of person) is never read as their name,
while a name that is also an English word is read when it is said as one ("Marigold speaking",
"this is Robin", "I'm May"), and the chat keeps the name given before the self-description."""

from __future__ import annotations

import pytest

from common.clock import Clock
from common.config import load_settings
from common.messages import UserInput
from common.store import DataLayout, ProfileStore
from interaction.dialogue import DialogueManager
from interaction.offline.extract import extract_name
from interaction.offline.name_claims import read_name_claim
from interaction.offline.name_reading import read_answered_name

SELF_DESCRIPTIONS = [
    # adjectives of the lexicon, in lower case, odd capitals or after a writer's capitals
    "Oh, I'm coeliac, so no bread for me.", "hi, im widowed", "I'm ambidextrous, actually.", "im epileptic",
    "I'm Scottish and proud.", "im single",
    # a kind of person WordNet never writes with a capital, said bare ("I'm [a] vegan")
    "i'm pensioner now", "yo im vegetarian", "I'm Vegan.",
    # a word the lexicon does not know, in lower case from a writer who capitalises
    "I'm pescatarian, just so you know.", "I'm vegan, by the way.",
    # a faith or a people: spaCy's group entity, or a WordNet sense that bears the capital itself
    "I'm Presbyterian, like my mother.", "I'm Anglican.", "I'm Welsh.", "I'm Hindu.", "I'm Methodist",
    # ... which spaCy may read as a person in a longer sentence: WordNet's capitalised adjective decides
    "I'm Lutheran and I sing in a choir.",
]

INTRODUCTIONS = [
    # names that are also English words, said where only a person stands or capitalised mid-sentence
    ("Evening Nadine, Marigold speaking.", "Marigold"), ("Heather here, hello again", "Heather"),
    ("Good morning, this is Robin.", "Robin"), ("it's Dawn again", "Dawn"), ("Hello, this is Will again.", "Will"),
    ("hi, it's Sky", "Sky"), ("I'm Autumn", "Autumn"), ("Hi, I'm May.", "May"), ("I'm Pearl.", "Pearl"),
    ("I'm Summer, Jasper's sister.", "Summer"), ("I'm Ginger", "Ginger"), ("my name is Faith", "Faith"),
    # a name that is also a kind of person or an adjective, read as a person by spaCy
    ("I'm Frank, nice to meet you.", "Frank"), ("Hello, I'm Tom.", "Tom"), ("I'm Bobby", "Bobby"),
    # ... or not, written with its capital right after a greeting ("hey I'm Leo" gave no name: my play)
    ("hiya I'm Virgo", "Virgo"), ("hey I'm Leo", "Leo"),
    # asked to be called so, or what others call them
    ("you can call me Gaz", "Gaz"), ("my mates all call me Bex", "Bex"),
]


@pytest.mark.parametrize("said", SELF_DESCRIPTIONS)
def test_what_the_speaker_is_is_no_name(said):
    assert extract_name(said, loose=True) is None
    assert read_name_claim(said) is None  # nor a new name for someone Nadine knows


@pytest.mark.parametrize(("said", "name"), INTRODUCTIONS)
def test_a_name_that_is_also_a_word_is_read_when_said_as_a_name(said, name):
    assert extract_name(said, loose=True) == name


@pytest.mark.parametrize(("said", "name"), [("Hello, I'm Nina.", "Nina"), ("Hi there, I'm Minerva, a nurse.", "Minerva")])
def test_a_name_wordnet_lists_for_one_person_is_a_name(said, name):
    """WordNet files "Nina" (a goddess) as a person, as it does "Quaker": one listed person bears a name,
    never a kind the speaker is; "Hi, I'm Nina." was asked "What's your name?"."""
    assert extract_name(said) == name


@pytest.mark.parametrize(("said", "name"), [("Hi, I'm Ignatius", "Ignatius"), ("Hi, I'm Isolde", "Isolde")])
def test_a_name_of_one_person_the_recogniser_files_as_a_people_is_a_name(said, name):
    """spaCy files "Ignatius" and "Isolde" as a people or faith (NORP), which a known English word of
    that kind is no name ("I'm Catholic"); WordNet lists each as one person (a saint, a heroine), not a
    kind of person, so each is a name ("Hi, I'm Ignatius" was asked "What's your name?", tester44 zh09)."""
    assert extract_name(said) == name
    assert extract_name("I'm Catholic") is None and extract_name("I'm Sikh") is None


@pytest.mark.parametrize(("said", "name"), [
    # a title is no part of the name, whether the sentence splitter or the pattern met it first
    ("Good morning, I'm Dr. Olu Adeyemi and I work at the clinic.", "Olu Adeyemi"),
    ("My name is Ms. Ingrid Falk.", "Ingrid Falk"), ("This is Mr Tobias Brandt.", "Tobias Brandt"),
    ("Hi, I'm Senator Ruth Ames.", "Ruth Ames"),
    # a name that is also a person's word, or an abbreviation, without its stop, stays a name
    ("I'm Dean Okafor.", "Dean Okafor"), ("Hi, I'm Mo Salah.", "Mo Salah"),
])
def test_a_title_before_a_name_is_no_part_of_it(said, name):
    assert extract_name(said) == name


@pytest.mark.parametrize("said", ["been with my husband since school, his name's Declan",
                                  "The cat's name's Biscuit and she hates the vet."])
def test_someone_elses_name_is_not_the_speakers(said):
    """Only "the name's ..." or "name's ..." on its own gives the speaker's name: "her name's Brenda"
    after telling of a wife took the speaker for Brenda, and everything after was kept as hers."""
    assert extract_name(said) is None and extract_name(said, loose=True) is None


@pytest.mark.parametrize(("said", "name"), [
    # a surname joined by an apostrophe or a hyphen, straight or curly, is read whole
    ("Hello there, I'm Ciaran O'Donnell and I keep bees in Sligo.", "Ciaran O'Donnell"),
    ("I'm Marguerite D'Souza, I run a bakery.", "Marguerite D'Souza"),
    ("Hi, I'm Fatou N'Dour.", "Fatou N'Dour"), ("I'm Niamh O\u2019Hara.", "Niamh O\u2019Hara"),
    ("Morning, I'm Priya Shah-Patel.", "Priya Shah-Patel"), ("I'm Ewan MacLeod.", "Ewan MacLeod"),
    # an Irish surname's particle, a word of one letter, is part of it
    ("Hi, I'm Aoife Ó Dálaigh from Cork.", "Aoife Ó Dálaigh"),
    # ... and one typed in lower case inside the name ("My name is Bram de Wit" was "Bram De": my play)
    ("My name is Joost van Dijk.", "Joost van Dijk"), ("Hello, I'm Ines da Costa.", "Ines da Costa"),
    # a lone initial or an apostrophe with nothing after it is no surname
    ("I'm Grace O' and that's that.", "Grace"), ("I'm Hugo I think.", "Hugo"),
    # nor is a possessive's ending
    ("I'm Rhona Baird's daughter.", "Rhona Baird"),
])
def test_a_surname_with_an_apostrophe_a_hyphen_or_a_particle_is_read_whole(said, name):
    assert extract_name(said, loose=True) == name


@pytest.mark.parametrize(("said", "name"), [("Actually, I'm Pearl.", "Pearl"), ("Actually, I'm Methodist.", None)])
def test_a_known_speaker_is_renamed_by_a_name_not_by_a_faith(said, name):
    claim = read_name_claim(said)
    assert (claim.name if claim else None) == name


@pytest.mark.parametrize(("answer", "name"), [("Jasper", "Jasper"), ("Hope.", "Hope"), ("marigold", "Marigold"),
                                              ("Christian", "Christian"), ("Norman.", "Norman")])
def test_a_word_alone_answering_the_question_for_the_name_is_the_name(answer, name):
    """Asked for the name, the answer is one even when it is an English noun MiniLM puts nearer a job
    title than a name ("jasper", a stone), or a faith or a people said of no one ("Christian")."""
    assert read_answered_name(answer) == name


class _Outbox:
    def publish(self, spec, message) -> None:
        pass


def _chat(tmp_path) -> tuple[DialogueManager, ProfileStore]:
    """The dialogue of a chat without a camera, in process, and the profiles it keeps."""
    layout = DataLayout(tmp_path)
    settings = load_settings(environ={"NADINE_DATA_DIR": str(tmp_path)})
    return DialogueManager(settings, layout, Clock(layout.runtime_dir), _Outbox(), environ={}), ProfileStore(layout)


def test_a_self_description_after_an_introduction_keeps_the_name(tmp_path):
    """The chat of a person without a camera: named as they answer the phone, then a condition, then
    asked their name back; one profile, under the name they gave."""
    dm, store = _chat(tmp_path)
    first = dm.process_input(UserInput(text="evening Nadine, Ruby speaking"))
    assert first.user_name == "Ruby" and "name?" not in first.reply, first.reply
    told = dm.process_input(UserInput(text="I'm pescatarian, just so you know."))
    assert told.user_name == "Ruby" and told.user_id == first.user_id
    assert "Pescatarian" not in told.reply and "meet you" not in told.reply, told.reply
    asked = dm.process_input(UserInput(text="what's my name?"))
    assert "Ruby" in asked.reply, asked.reply
    assert sorted(store.user_ids().values()) == ["Ruby"]


def test_what_friends_call_a_known_speaker_is_neither_a_new_person_nor_a_rename(tmp_path):
    """A nickname that is an adjective to the tagger ("Sunny") but a name to the entity recogniser,
    said as what others call them: the same person, still under the name they gave."""
    claim = read_name_claim("my mates call me Sunny")
    assert claim is not None and claim.name == "Sunny" and claim.hearsay
    dm, store = _chat(tmp_path)
    first = dm.process_input(UserInput(text="Hello, I'm Autumn."))
    assert first.user_name == "Autumn"
    nick = dm.process_input(UserInput(text="my mates call me Sunny"))
    assert nick.user_id == first.user_id and nick.user_name == "Autumn", nick.reply
    assert sorted(store.user_ids().values()) == ["Autumn"]


def test_the_cached_sentence_split_hands_each_caller_its_own_list():
    from interaction import cues

    first = cues.sentences("I'm Dr. Olu Adeyemi. I work at the clinic.")
    assert first == ["I'm Dr. Olu Adeyemi.", "I work at the clinic."]
    first.pop()
    assert cues.sentences("I'm Dr. Olu Adeyemi. I work at the clinic.") == ["I'm Dr. Olu Adeyemi.", "I work at the clinic."]
    assert cues.sentences("A quiet day.") == ["A quiet day."]


@pytest.mark.parametrize(("said", "job", "place"), [
    ("Name's Fionnuala, I run a bakery in Sligo.", "run a bakery", "Sligo"),
    ("Siobhan's the name, I sell insurance in Cork.", "sell insurance", "Cork"),
    ("The name's Tadhg, I work for Aer Lingus in Dublin.", "Aer Lingus", "Dublin"),
])
def test_work_and_place_said_in_the_sentence_that_gives_the_name_are_kept(said, job, place):
    """A comma joins the name and the clause about work: that clause's subject is the speaker, not the name."""
    from interaction.agents.memory_agents import decide_facts
    from interaction.offline.extract import extract_profile

    update, _, _ = decide_facts(said, extract_profile(said, loose_names=True), {})
    kept = update.facts()
    assert update.user_name and job in (kept.get("current_position"), kept.get("current_company")), kept
    assert kept.get("location") == place, kept


@pytest.mark.parametrize("said", ["This is my husband Rolf.", "My wife is a nurse, Ana.", "I'm a huge fan of Adele."])
def test_a_name_beside_someone_of_theirs_is_not_the_speakers(said):
    """A name set beside a person word is the speaker's only when it is what the speaker says they are."""
    assert read_name_claim(said) is None


@pytest.mark.parametrize(("said", "name"), [
    # "Hi, my name is Charlotte, and I've been meaning to come and chat with you for ages because my
    # friend told me about you." was answered as a question about Nadine's name (tester39 r43): what
    # follows the name may speak of her, the name is still the speaker's
    ("Hello, my name is Rosalind, and I've wanted to come and talk to you since my grandson told me about you.",
     "Rosalind"),
    ("Hi, I'm Ewan, and I've been so curious about you since my daughter mentioned you.", "Ewan"),
])
def test_a_name_given_before_talk_of_nadine_is_the_speakers(said, name):
    assert extract_name(said) == name
