"""Telling a player that the table waits for them while their page is closed: Web Push
(``push.py``, with the server's VAPID key, ``keys.py``) and email (``mail.py``), each
opted in per room and seat (``subscriptions.py``), sent by ``notifier.py``."""
