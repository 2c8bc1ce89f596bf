"""Interaction's memory: episodic + conversation (ChromaDB), visual scenes, knowledge RAG, vision."""
