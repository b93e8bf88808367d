"""``GET /metrics``: this node's figures in Prometheus's text format.

There is no such route unless ``DAME_NATURE_METRICS_TOKEN`` is set (404, as for any
address that does not exist), and then it answers only a request carrying
``Authorization: Bearer <that token>`` (401 otherwise; compared in constant time), so
the figures are never public by accident.
"""

from __future__ import annotations

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST
from starlette.exceptions import HTTPException

from ..deps import ManagerDep, SettingsDep, TokenDep
from ..errors import Refused
from ..rooms.model import same_secret
from .rooms import ERRORS

router = APIRouter(tags=["operations"])


@router.get(
    "/metrics",
    response_class=Response,
    responses={200: {"content": {CONTENT_TYPE_LATEST: {}}, "description": "the figures"}, **ERRORS},
)
async def metrics(manager: ManagerDep, settings: SettingsDep, token: TokenDep) -> Response:
    """Rooms by status, games started and finished, sockets, actions, action and store
    latencies, bots' thinking, outbox drops and refusals by code (see
    ``docs/operations.md``). Needs the metrics token as a Bearer token."""
    expected = settings.metrics_token.get_secret_value() if settings.metrics_token else ""
    if not expected:
        raise HTTPException(404)
    if token is None:
        raise Refused("missing_token", "This needs the metrics token (Authorization: Bearer).")
    if not same_secret(token, expected):
        raise Refused("invalid_token", "This is not the metrics token.")
    return Response(manager.metrics.render(), media_type=CONTENT_TYPE_LATEST)
