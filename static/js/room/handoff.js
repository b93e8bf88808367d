// A seat opened by its personal link (/r/{code}#seat={token}, from "Open my seat on
// another device"): the token goes to this browser's seat memory before anything reads
// it, and leaves the address bar at once (a fragment never reaches a server or its log;
// out of the address bar, it is not in the history or a bookmark either). Imported by
// room.js before every other module of the room page.
import { rememberRoom, roomMemory } from "../api.js";

const TOKEN = /(?:^#|&)seat=([A-Za-z0-9_-]{16,128})(?:&|$)/;

function takeSeatFromLink() {
  const found = TOKEN.exec(location.hash || "");
  if (!found) return;
  const code = document.getElementById("room").dataset.code;
  const mem = roomMemory(code);
  if (mem.token !== found[1]) {
    // another seat of this room remembered here gives way (the link is the newer wish);
    // the host token, if this browser has it, stays
    const next = { token: found[1], opened_by_link: true };
    if (mem.seat !== undefined) next.seat = null;
    rememberRoom(code, next);
  }
  history.replaceState(history.state, "", location.pathname + location.search);
}

takeSeatFromLink();
