"""The QR code encoder of the page (``static/js/qr.js``) draws, module for module, what
the ``qrcode`` package makes of the same text with the same mask (level M, byte mode),
from a short text to one that needs version information (version 7 and up)."""

from __future__ import annotations

import json
from typing import Any

import pytest

qrcode = pytest.importorskip("qrcode")

TEXTS = [
    "hi",
    "https://dn.example.org/r/abcdEFGH12345678#seat=" + "x" * 32,
    "http://127.0.0.1:8000/r/" + "A1b2" * 4 + "#seat=" + "tok_" * 10,
    "é" * 60,
    "y" * 150,
    "z" * 300,
]


def reference(text: str, mask: int) -> list[str]:
    code = qrcode.QRCode(
        error_correction=qrcode.constants.ERROR_CORRECT_M, mask_pattern=mask, border=0
    )
    code.add_data(text.encode(), optimize=0)
    code.make(fit=True)
    return ["".join("1" if c else "0" for c in row) for row in code.get_matrix()]


def test_the_page_encoder_matches_the_qrcode_package(open_page: Any) -> None:
    page = open_page()
    page.goto("/")
    cases = [[text, mask] for text in TEXTS for mask in range(8)]
    drawn = page.evaluate(
        """async (cases) => {
            const { qrMatrix, qrSvg } = await import("/static/js/qr.js");
            return {
                matrices: cases.map(([text, mask]) =>
                    qrMatrix(text, mask).map((row) => row.map((c) => (c ? "1" : "0")).join(""))),
                best: qrMatrix(cases[8][0]).length,
                svg: qrSvg(cases[8][0], "seat <link>"),
                tooLong: qrMatrix("x".repeat(2000)),
            };
        }""",
        cases,
    )
    for (text, mask), matrix in zip(cases, drawn["matrices"], strict=True):
        assert matrix == reference(text, mask), json.dumps([len(text), mask])
    assert drawn["best"] == len(reference(TEXTS[1], 0))
    assert drawn["svg"].startswith("<svg") and "<title>seat link</title>" in drawn["svg"]
    assert drawn["tooLong"] is None
