def review(*a, **k):
    raise NotImplementedError
