"""Dame Nature Online: the cooperative card game Dame Nature, playable in the browser."""

__version__ = "0.1.0"
