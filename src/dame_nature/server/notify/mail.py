"""Sending one notice by email through the SMTP server of the settings
(``DAME_NATURE_SMTP_*``), with a one-click unsubscribe (RFC 8058: the
``List-Unsubscribe`` link, and ``List-Unsubscribe-Post`` for mail clients that post to
it). The address is used for this mail only: never logged."""

from __future__ import annotations

import asyncio
import re
import smtplib
from email.message import EmailMessage
from email.utils import make_msgid

from ..settings import Settings

#: an address as people type it (one @, no spaces or angle brackets, a dotted domain)
ADDRESS_RE = re.compile(r"^[^@\s<>,;\"()\[\]\\]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}$")


def check_address(address: str) -> str:
    """The address, trimmed; ``ValueError`` when it is not one."""
    address = address.strip()
    if len(address) > 254 or not ADDRESS_RE.match(address):
        raise ValueError("this is not an email address (name@example.org)")
    return address


def message(
    settings: Settings, to: str, subject: str, text: str, unsubscribe_url: str
) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = settings.smtp_from or f"Dame Nature <noreply@{settings.smtp_host}>"
    mail["To"] = to
    mail["Subject"] = subject
    mail["Message-ID"] = make_msgid(domain="dame-nature")
    mail["List-Unsubscribe"] = f"<{unsubscribe_url}>"
    mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    mail.set_content(f"{text}\n\n--\nNo more mails for this game: {unsubscribe_url}\n")
    return mail


def _send(settings: Settings, mail: EmailMessage) -> None:
    assert settings.smtp_host is not None
    timeout = settings.smtp_timeout_seconds
    with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=timeout) as smtp:
        if settings.smtp_starttls:
            smtp.starttls()
        if settings.smtp_user:
            smtp.login(settings.smtp_user, settings.smtp_password or "")
        smtp.send_message(mail)


async def send(settings: Settings, mail: EmailMessage) -> None:
    """Send ``mail`` (in a thread: smtplib blocks)."""
    await asyncio.to_thread(_send, settings, mail)
