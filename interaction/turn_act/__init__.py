"""What a turn does in the conversation: a farewell, a backchannel, declining a topic, or something else."""
