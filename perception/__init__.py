"""Nadine perception process (`python -m perception`), one module per stage of the frame loop:

camera.py            sources: webcam, video file, image folder, watch:<folder>, realsense
tracking.py          the active user (closest, else largest face; 2.5 s switch hysteresis)
identity.py          who the tracked face is (gallery of registered faces, names from the profiles)
announcer.py         when user_detected goes out (change, heartbeat, all-null after the timeout)
registration.py      user_info -> face crop + embedding, face_stored, first_meeting scene
selective_memory/    which moments become scenes (policies, triggers, the scene recorder)
capture.py           capture_current_view -> view_captured
fer_sampler.py       study FER samples (JSONL)
forget.py            forget_user -> user_forgotten
pipeline.py          the per-frame step that runs them in order; assemble.py wires it from config
backends/            the face / emotion models behind small interfaces
"""
