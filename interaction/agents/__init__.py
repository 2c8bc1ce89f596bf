"""The graph's agents: understand, memory update / retrieve, tool agents, response."""
