"""Selective visual memory: which moments of a known user become memorable scenes.

policies.py decides (intensity | pad_arousal | vision), triggers.py says when to decide (event |
interval), recorder.py writes a scene, module.py ties them to affect events and frames.
"""
