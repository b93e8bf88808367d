// The service worker of the installable app: it receives the turn notices the server
// pushes (Web Push) and shows them; a click opens (or focuses) the room's page. It caches
// nothing: the game is live, and a stale page would show a stale table.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (err) {
    data = { body: event.data ? event.data.text() : "" };
  }
  const url = typeof data.url === "string" && data.url.startsWith("/r/") ? data.url : "/";
  event.waitUntil(
    self.registration.showNotification(data.title || "Dame Nature", {
      body: data.body || "",
      tag: data.tag || url,
      renotify: true,
      icon: "/static/img/icon-192.png",
      badge: "/static/img/icon-192.png",
      data: { url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
      const same = open.find((client) => client.url.split("#")[0] === url);
      if (same) return same.focus();
      return self.clients.openWindow(url);
    }),
  );
});
