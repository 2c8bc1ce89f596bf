"""Active-user choice with the 2.5 s switch hysteresis, and when user_detected is published."""

from __future__ import annotations

from common import topics as t
from perception.announcer import Announcer
from perception.backends.base import FaceBox
from perception.tracking import ActiveUserTracker, Identity, preferred

A = FaceBox(10, 10, 110, 110)  # area 10000
B = FaceBox(300, 10, 380, 90)  # area 6400, elsewhere
A_MOVED = FaceBox(14, 12, 114, 112)


def test_preferred_is_closest_by_depth_else_largest():
    near_small = FaceBox(0, 0, 10, 10, depth_m=0.8)
    far_big = FaceBox(0, 0, 100, 100, depth_m=2.0)
    assert preferred([far_big, near_small]) is near_small
    assert preferred([B, A]) is A
    assert preferred([FaceBox(0, 0, 10, 10, depth_m=0.0), A]) is A  # no valid depth: largest


def test_a_better_face_takes_over_only_after_the_hold():
    tr = ActiveUserTracker(hold_s=2.5, no_face_timeout_s=5.0)
    first = tr.update([B], 0.0)
    assert first.box == B
    assert tr.update([B, A], 1.0).track_id == first.track_id  # A is larger, but only for 0 s
    assert tr.update([B, A], 3.0).track_id == first.track_id  # 2.0 s
    switched = tr.update([B, A], 3.6)  # 2.6 s
    assert switched.track_id != first.track_id and switched.box == A


def test_the_track_follows_a_moving_face_and_survives_short_misses():
    tr = ActiveUserTracker(hold_s=2.5, no_face_timeout_s=5.0)
    track = tr.update([A], 0.0)
    assert tr.update([A_MOVED], 0.1) is track and track.box == A_MOVED
    assert tr.update([], 1.0) is track and not track.visible
    assert tr.update([A], 2.0) is track and track.visible
    assert tr.update([], 6.9) is track
    assert tr.update([], 7.1) is None  # 5 s without a face


def test_a_new_still_image_starts_a_new_track_at_once():
    tr = ActiveUserTracker(hold_s=2.5, no_face_timeout_s=5.0)
    track = tr.update([A], 0.0)
    assert tr.update([A_MOVED], 0.1, cut=True).track_id != track.track_id


def test_a_vanished_face_is_replaced_after_the_hold():
    tr = ActiveUserTracker(hold_s=2.5, no_face_timeout_s=5.0)
    track = tr.update([A], 0.0)
    assert tr.update([B], 1.0) is track and not track.visible
    assert tr.update([B], 2.6).box == B


def test_confidence_is_the_reference_percentage():
    assert Identity(None, 0.5).confidence == 75.0
    assert Identity(None, -1.0).confidence == 0.0


def test_announcements_on_change_heartbeat_and_gone():
    ann = Announcer(period_s=5.0)
    assert ann.gone() is None  # nobody announced: no null message
    first = ann.seen(None, None, 60.0, 0.0)
    assert (first.message.user_name, first.message.user_id, first.qos) == ("Unknown", None, t.QOS_STATE)
    assert ann.seen(None, None, 61.0, 1.0) is None
    beat = ann.seen(None, None, 61.0, 5.0)
    assert beat.qos == t.QOS_STREAM
    change = ann.seen("u1", "Maya", 97.0, 5.5)
    assert (change.message.user_name, change.message.user_id, change.qos) == ("Maya", "u1", t.QOS_STATE)
    nobody = ann.gone()
    assert (nobody.message.user_name, nobody.message.user_id, nobody.message.confidence) == (None, None, 0.0)
    assert b'"user_name":null' in nobody.message.encode()
    assert ann.gone() is None
