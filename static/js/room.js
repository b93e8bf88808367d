// The room page: lobby, table and end screen, all drawn from the websocket's views.
// Entry point; each screen is a module of room/ and their shared state is room/state.js.
import "./room/handoff.js"; // first: a seat link's token is read before the seat memory
import { api } from "./api.js";
import { PLAYER_AID } from "./texts.js";
import { renderLobby } from "./room/lobby.js";
import { connect, setConn } from "./room/net.js";
import { $, app, CODE, render, screens, show } from "./room/state.js";
import { renderDeviceButton } from "./room/seats.js";
import { renderBanner, renderGame } from "./room/table.js";
import { renderEndLearn, renderHint } from "./room/learn.js";
import { renderEndDaily } from "./room/daily.js";

screens.lobby = () => {
  renderLobby();
  renderDeviceButton();
};
screens.game = () => {
  renderGame();
  renderDeviceButton();
  renderHint();
  renderEndLearn();
  renderEndDaily();
};
screens.banner = renderBanner;

async function init() {
  // the server's public URL (--public-url), or its LAN address when this page was opened
  // on localhost; else this page's own address
  const invite = new URL(`${$("room").dataset.inviteBase || location.origin}/r/${CODE}`);
  $("invite-link").value = invite.href;
  // a loopback link is of no use to a friend: say how to serve them
  $("invite-local").hidden = !/^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(invite.hostname);
  $("newcomer-aid").innerHTML = PLAYER_AID.map((text) => `<li>${text}</li>`).join("");
  try {
    app.room = await api("GET", `/api/rooms/${encodeURIComponent(CODE)}`);
  } catch (err) {
    show("error-view");
    if (err.status !== 404) $("error-text").textContent = err.message;
    setConn("closed");
    return;
  }
  connect();
  render();
}

init();
