"""The server's pydantic action models, generated from the engine's action registry,
have its fields under the names the API documents, and the OpenAPI schema documents the
view."""

from __future__ import annotations

import typing

from dame_nature.engine import ACTIONS
from dame_nature.server.models import Action, ModesPublic, WsState


def _models() -> dict[str, type]:
    union = typing.get_args(Action)[0]
    return {
        typing.get_args(model.model_fields["type"].annotation)[0]: model
        for model in typing.get_args(union)
    }


def test_one_model_per_registered_action_type_with_the_same_fields():
    models = _models()
    assert set(models) == set(ACTIONS)
    for kind, spec in ACTIONS.items():
        fields = models[kind].model_fields
        assert set(fields) - {"type"} == {f.name for f in spec.fields}, kind
        for field in spec.fields:
            assert fields[field.name].is_required() == field.required, (kind, field.name)
    # the OpenAPI schema's names of them
    assert {model.__name__ for model in models.values()} == {
        "ChooseSideAction", "RevealAction", "GiveBackAction", "ProgramAction", "ReadyAction",
        "UnreadyAction", "ShowAction", "GiveAction", "SwapDiscardAction", "EndGameAction",
    }  # fmt: skip


def test_the_view_and_the_reasons_are_in_the_schema(api):
    schema = api.http.get("/openapi.json").json()
    components = schema["components"]["schemas"]
    assert "View" in components and "to_act" in components["View"]["properties"]
    state = schema["paths"]["/api/rooms/{room}/state"]["get"]["responses"]["200"]
    assert state["content"]["application/json"]["schema"]["$ref"].endswith("/View")
    assert "view" in WsState.model_fields and "reasons" in ModesPublic.model_fields
    reasons = api.http.get("/api/modes").json()["reasons"]
    assert reasons["cat_alone"]["en"] and reasons["cat_alone"]["fr"]


def test_the_lobby_view_has_every_field_of_the_view(api):
    from dame_nature.engine.view import View

    room = api.create(modes=["first_predator"]).json()["room"]
    api.join(room, "Ada")
    lobby = api.http.get(f"/api/rooms/{room}/state").json()
    assert lobby["phase"] == "lobby" and lobby["to_act"] == []
    assert set(View.__annotations__) <= set(lobby)
    assert [p["name"] for p in lobby["players"]] == ["Ada"]
