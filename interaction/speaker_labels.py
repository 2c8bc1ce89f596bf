"""The speaker labels of a transcript in the response prompt ("User: ...", "Nadine: ..."), kept
apart from the prompts so that what reads a turn (interaction/memory/told.py) can name the robot
without importing the prompts, which say recalled summaries through it (interaction/session_gist.py)."""

USER_LABEL, NADINE_LABEL = "User", "Nadine"
