"""The on-disk memory shared by perception and interaction (atomic writes, locked updates)."""

from common.store.ids import InvalidUserId, is_valid_user_id, new_user_id, validate_user_id
from common.store.layout import DataLayout, PathOutsideDataRoot
from common.store.profiles import ProfileStore, UserProfile
from common.store.scenes import FIRST_MEETING_ANCHOR, SceneMetadata, SceneStore, new_scene_id

__all__ = [
    "DataLayout", "FIRST_MEETING_ANCHOR", "InvalidUserId", "PathOutsideDataRoot", "ProfileStore",
    "SceneMetadata", "SceneStore", "UserProfile", "is_valid_user_id", "new_scene_id", "new_user_id",
    "validate_user_id",
]
