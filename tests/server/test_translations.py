"""The browser UI in French and English: every string the UI shows has its French in
``static/js/locales/fr.js``.

Strings are English in the code, wrapped in ``t("...")`` / ``tn("one", "other", n)``
(``static/js/i18n.js``), and marked ``data-i18n`` / ``data-i18n-attr`` in the templates.
These tests read the sources (no browser): a new string without its French fails here
with the string named; ``tests/ui/test_i18n.py`` switches a real page's language.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from dame_nature.engine import RULES

ROOT = Path(__file__).resolve().parents[2]
STATIC_JS = ROOT / "static" / "js"
TEMPLATES = ROOT / "templates"

T_CALL = re.compile(r'(?<![\w.$])t\(\s*"((?:[^"\\]|\\.)*)"', re.S)
#: ``tg("...", gender)``: a sentence whose French agrees with a card's gender
TG_CALL = re.compile(r'(?<![\w.$])tg\(\s*"((?:[^"\\]|\\.)*)"', re.S)
TN_CALL = re.compile(r'(?<![\w.$])tn\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*"((?:[^"\\]|\\.)*)"', re.S)
PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: text of the templates that stays as it is in both languages
SAME_IN_BOTH = {"Dame Nature", "Online", "English", "Français", "Aigle royal", "Language / Langue"}


def french() -> dict[str, str]:
    text = (STATIC_JS / "locales" / "fr.js").read_text(encoding="utf-8")
    start = text.index("{", text.index("export default"))
    catalogue: dict[str, str] = json.loads(text[start : text.rindex("}") + 1])
    return catalogue


def _unquote(literal: str) -> str:
    value: str = json.loads(f'"{literal}"')
    return value


def js_strings() -> dict[str, str]:
    """``{English string: file}`` of every t()/tg()/tn() call of the UI's scripts."""
    found: dict[str, str] = {}
    for path in sorted(STATIC_JS.rglob("*.js")):
        if "locales" in path.parts or path.name == "i18n.js":
            continue
        text = path.read_text(encoding="utf-8")
        name = str(path.relative_to(ROOT))
        for match in (*T_CALL.finditer(text), *TG_CALL.finditer(text)):
            found.setdefault(_unquote(match.group(1)), name)
        for match in TN_CALL.finditer(text):
            found.setdefault(_unquote(match.group(1)), name)
            found.setdefault(_unquote(match.group(2)), name)
    return found


class TemplateTexts(HTMLParser):
    """The keys a template marks (``data-i18n``, ``data-i18n-attr``) and the text it
    leaves unmarked."""

    VOID = {"input", "br", "img", "meta", "link", "path", "hr", "source"}
    SKIP = {"script", "style", "svg", "code"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, dict[str, str | None], list[str]]] = []
        self.keys: set[str] = set()
        self.unmarked: list[str] = []

    def _attrs(self, attrs: dict[str, str | None]) -> None:
        for name in (attrs.get("data-i18n-attr") or "").split(","):
            value = attrs.get(name.strip())
            if name.strip() and value:
                self.keys.add(value)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self._attrs(found)
        if tag not in self.VOID:
            self.stack.append((tag, found, []))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._attrs(dict(attrs))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            name, attrs, parts = self.stack.pop()
            if "data-i18n" in attrs:
                self.keys.add(attrs["data-i18n"] or " ".join("".join(parts).split()))
            if self.stack:
                self.stack[-1][2].extend(parts)
            if name == tag:
                return

    def handle_data(self, data: str) -> None:
        if self.stack:
            self.stack[-1][2].append(data)
        text = " ".join(data.split())
        if not re.search(r"[A-Za-z]{2}", text) or "{%" in text or "{{" in text:
            return
        inside = [name for name, _, _ in self.stack]
        marked = any("data-i18n" in attrs for _, attrs, _ in self.stack)
        if not marked and not set(inside) & self.SKIP and text not in SAME_IN_BOTH:
            self.unmarked.append(text)


def template_texts() -> dict[str, TemplateTexts]:
    parsed: dict[str, TemplateTexts] = {}
    for path in sorted(TEMPLATES.glob("*.html")):
        source = path.read_text(encoding="utf-8")
        parser = TemplateTexts()
        titles = re.compile(r"{% block title %}(.*?){% endblock %}")
        parser.keys.update(titles.findall(source))  # i18n.js translates the page's title
        parser.feed(re.sub(r"{%.*?%}", "", titles.sub("", source)))
        parsed[path.name] = parser
    return parsed


def test_every_string_of_the_scripts_has_its_french():
    catalogue = french()
    strings = js_strings()
    assert len(strings) > 200, "the scripts' strings are found"
    missing = {s: f for s, f in strings.items() if s not in catalogue}
    assert not missing, f"add the French of these strings to static/js/locales/fr.js: {missing}"


def test_every_text_of_the_templates_is_marked_and_has_its_french():
    catalogue = french()
    for name, parsed in template_texts().items():
        assert not parsed.unmarked, f"{name}: mark with data-i18n: {parsed.unmarked}"
        missing = sorted(k for k in parsed.keys if k not in catalogue)
        assert not missing, f"{name}: add the French of {missing} to static/js/locales/fr.js"


def test_the_french_keeps_every_placeholder():
    for english, text in french().items():
        if english.startswith(("error:", "home.")):
            continue
        wanted = {p.lower() for p in PLACEHOLDER.findall(english)}
        assert {p.lower() for p in PLACEHOLDER.findall(text)} == wanted, english
        assert text.strip(), english


def test_the_french_puts_a_non_breaking_space_before_a_colon():
    """French sets a space before ":", ";", "!" and "?", one that never breaks (a line
    starting with a colon on a phone otherwise)."""
    bare = [text for text in french().values() if re.search(r" [:;!?]", text)]
    assert not bare, f"a plain space before a French colon, semicolon, ! or ?: {bare}"


def test_every_error_code_of_the_api_has_a_french_sentence():
    doc = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    errors = doc[doc.index("\n## Errors\n") :]
    errors = errors[: errors.index("\n## ", 1)]
    codes = set(re.findall(r"`([a-z]+(?:_[a-z]+)+|[a-z]+)`", errors)) - {"message"}
    catalogue = french()
    missing = sorted(c for c in codes if f"error:{c}" not in catalogue and c != "internal_error")
    assert not missing, f"add 'error:<code>' sentences to static/js/locales/fr.js for {missing}"


@pytest.mark.parametrize("mode", sorted(RULES))
def test_every_rule_has_its_title_and_summary_in_both_languages(mode):
    rule = RULES[mode]
    assert rule.title and rule.title_fr and rule.summary and rule.summary_fr
    assert rule.summary_fr != rule.summary
