"""Image-understanding backends shared by perception (storage, novelty) and interaction (vision agent,
image retrieval channel): scene encoders and captioners."""
