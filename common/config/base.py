from pydantic import BaseModel, ConfigDict


class Section(BaseModel):
    """A config section: unknown keys are errors (a typo must not be silently ignored)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)
