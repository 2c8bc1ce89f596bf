"""The retrieval core: candidates -> channel scores (dense, lexical) -> fused score ->
verification -> time window -> selection. Scene recall, episodic recall and scripts/eval/locomo.py
all rank through it; its decision becomes TurnResult.recall."""
