"""Model backends perception uses: face detection, face identity, facial emotion."""
