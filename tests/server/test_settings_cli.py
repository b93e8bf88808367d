"""The settings are written once: every field of ``Settings`` is a ``dame-nature serve``
option and a ``DAME_NATURE_*`` variable with the same meaning, shown in its group by
``--help`` and documented in its group's table of ``docs/operations.md``."""

from __future__ import annotations

import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from dame_nature.__main__ import command_line
from dame_nature.server.settings import GROUPS, Settings

OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations.md"
#: values the generic sample below cannot guess (each valid and unlike the default)
SAMPLES = {
    "public_url": "https://dn.example.org",
    "trusted_proxies": "10.0.0.0/8",
    "log_level": "debug",
}


def option(name: str) -> str:
    return "--" + name.replace("_", "-")


def variable(name: str) -> str:
    return "DAME_NATURE_" + name.upper()


def sample(name: str) -> tuple[list[str], str]:
    """A value unlike the default for the field ``name``: its command-line words and the
    same value as an environment variable."""
    field = Settings.model_fields[name]
    if name in SAMPLES:
        return [option(name), SAMPLES[name]], SAMPLES[name]
    kinds = set(typing.get_args(field.annotation)) or {field.annotation}
    if bool in kinds:
        flag = option(name) if not field.default else "--no-" + option(name)[2:]
        return [flag], "0" if field.default else "1"
    value = "7" if kinds & {int, float} else "sample"
    return [option(name), value], value


def from_command_line(argv: list[str]) -> Settings:
    parser, _, cli = command_line()
    return Settings(_cli_settings_source=cli(parsed_args=parser.parse_args(["serve", *argv])))


@pytest.fixture(autouse=True)
def _no_settings_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in Settings.model_fields:
        monkeypatch.delenv(variable(name), raising=False)


def test_every_setting_belongs_to_one_group_and_has_an_option_with_its_help() -> None:
    _, serve, _ = command_line()
    options = {o for action in serve._actions for o in action.option_strings}
    for name, field in Settings.model_fields.items():
        assert sum(name in group.model_fields for group in GROUPS) == 1, name
        assert option(name) in options, name
        assert field.description, f"{name} has no docstring"


@pytest.mark.parametrize("name", list(Settings.model_fields))
def test_an_option_and_its_variable_give_the_same_settings(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    words, value = sample(name)
    by_option = from_command_line(words)
    assert getattr(by_option, name) != Settings.model_fields[name].default, name
    monkeypatch.setenv(variable(name), value)
    by_variable = from_command_line([])
    assert by_option.model_dump() == by_variable.model_dump()


def test_the_command_line_wins_over_the_environment_and_keeps_the_documented_flags(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DAME_NATURE_PORT", "9000")
    monkeypatch.setenv("DAME_NATURE_HOST", "0.0.0.0")
    settings = from_command_line(
        ["--port", "8001", "--db", "postgresql://dame@db/dame", "--redis", "redis://cache:6379/0",
         "--node", "n1", "--public-url", "https://dn.example.org/play/", "--log-level", "warning"]
    )  # fmt: skip
    assert (settings.host, settings.port, settings.db) == (
        "0.0.0.0",
        8001,
        "postgresql://dame@db/dame",
    )
    assert (settings.redis, settings.node, settings.log_level) == (
        "redis://cache:6379/0",
        "n1",
        "warning",
    )
    assert settings.public_url == "https://dn.example.org/play"
    assert from_command_line([]) == Settings()


def test_help_shows_every_group_and_every_option_with_its_variable_and_default() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dame_nature", "serve", "--help"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    text = re.sub(r"\s+", " ", done.stdout)
    for group in GROUPS:
        assert f"{group.group_title()}:" in text
    for name in Settings.model_fields:
        assert option(name) in text and variable(name) in text, name
    assert "(DAME_NATURE_PORT; default: 8000)" in text
    assert "random suffix) (DAME_NATURE_NODE; default: none)" in text


def test_a_bad_value_is_refused_naming_its_option_and_variable() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dame_nature", "serve", "--port", "http"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--port (DAME_NATURE_PORT)" in done.stderr


def test_the_operations_doc_lists_every_variable_in_its_groups_table() -> None:
    text = OPERATIONS.read_text(encoding="utf-8")
    sections = re.split(
        r"^### ", text.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0], flags=re.M
    )
    documented = {
        section.split(" ", 1)[0]: set(re.findall(r"`(DAME_NATURE_[A-Z_]+)`", section))
        for section in sections[1:]
    }
    for group in GROUPS:
        short = group.group_name()
        assert f"{short} settings" in text, short
        for name in group.model_fields:
            assert variable(name) in documented.get(short, set()), (
                f"{variable(name)} not under {short}"
            )
