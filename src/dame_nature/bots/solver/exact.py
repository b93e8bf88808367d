"""Placeholder replaced below."""
def exact_verdict(pos, node_budget, time_budget):
    return None
