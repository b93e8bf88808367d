// REST calls, the seat memory in localStorage, and the websocket with auto-reconnect.
import { serverMessage, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export async function api(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError("network", t("The server cannot be reached. Check your connection and try again."), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const e = (data && data.error) || {};
    const code = e.code || `http_${response.status}`;
    throw new ApiError(code, serverMessage(code, e.message || t("The server answered {status}.", { status: response.status })), response.status);
  }
  return data;
}

// ---- seats remembered in this browser: {code: {seat, token, host_token, name}}
const KEY = "dameNature.rooms";

export function loadSeats() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch (err) {
    return {};
  }
}

export function roomMemory(code) {
  return loadSeats()[code] || {};
}

export function rememberRoom(code, patch) {
  const all = loadSeats();
  all[code] = { ...(all[code] || {}), ...patch, at: Date.now() };
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch (err) {
    /* storage full or disabled: the seat is only kept for this page */
  }
  return all[code];
}

export function forgetSeat(code) {
  const all = loadSeats();
  if (all[code]) {
    delete all[code].seat;
    delete all[code].token;
    localStorage.setItem(KEY, JSON.stringify(all));
  }
}

/** Closes after which retrying cannot help: a bad token, a forbidden seat, no such room. */
const FINAL_CLOSES = new Set([4401, 4403, 4404]);

/**
 * A websocket that reconnects by itself (backoff up to 8 s, with jitter) and reports its
 * state: onStatus("connecting" | "open" | "reconnecting" | "closed"), onMessage(obj).
 * Only a final refusal (FINAL_CLOSES) stops it; "too many connections" (4429), a
 * server restart or a policy close (1008) are retried.
 * `protocols`: the websocket subprotocols offered (the seat token travels there, never
 * in the URL).
 */
export class LiveSocket {
  constructor(url, { onMessage, onStatus, protocols }) {
    this.url = url;
    this.protocols = protocols || [];
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.attempt = 0;
    this.stopped = false;
    this.ws = null;
    this.timer = null;
    this.connect();
    window.addEventListener("online", () => this.retryNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.retryNow();
    });
  }

  connect() {
    if (this.stopped) return;
    this.onStatus(this.attempt === 0 ? "connecting" : "reconnecting");
    let ws;
    try {
      ws = new WebSocket(this.url, this.protocols);
    } catch (err) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.onStatus("open");
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      this.onMessage(msg);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (FINAL_CLOSES.has(event.code)) {
        this.onStatus("closed", event);
        return;
      }
      // 4429: the server is busy with this room, seat or address: come back later
      this.scheduleRetry(event.code === 4429 ? 2000 : 400);
    });
  }

  scheduleRetry(base = 400) {
    if (this.stopped || this.timer) return;
    this.attempt += 1;
    this.onStatus("reconnecting");
    // exponential backoff with jitter, so that clients refused together do not all
    // come back at the same moment
    const delay = Math.min(8000, base * 2 ** Math.min(this.attempt - 1, 5)) * (0.75 + Math.random() / 2);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, delay);
  }

  retryNow() {
    if (this.stopped || this.ws) return;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.connect();
  }

  isOpen() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  send(obj) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
