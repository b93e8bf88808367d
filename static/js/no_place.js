// Before the reveal: whether the public table already says that a programmed card will be
// discarded. Only what the view makes certain is said: the web as it is now, the seats
// (who reveals first, who is first player), the Plant/Animal sides and the rules on.
// What the card revealed just before it decides (Associated and Dependent Conditions,
// the Wetland's "after a blue card", Climate Change, Cats) is certain only for the first
// card revealed this turn, which has none before it; what the view does not hold (a
// Reintroduction played earlier, still waiting for its animal) is never guessed. Each
// check follows the engine's reveal (engine/reveal.py and the rules' discard_reason and
// allows_slot hooks); tests/ui/test_no_place_hint.py holds it to the engine's reveal.
import { BOOT, card } from "./cards.js";
import { COLOUR_ORDER } from "./texts.js";
import { isOpen, layoutName } from "./web.js";

/** Whether `seat`'s programmed card is the first revealed this turn: the reveal goes in
 * seat order from the first player, skipping the seats with no card. */
export function revealsFirst(view, seat) {
  const players = view.players || [];
  for (let i = 0; i < players.length; i++) {
    const s = (view.first_player + i) % players.length;
    if (s === seat) return true;
    const p = players.find((x) => x.seat === s);
    if (!p || p.has_programmed || p.hand_size > 0) return false;
  }
  return false;
}

const isOn = (view, mode) => (view.modes || []).includes(mode);

/** The webs of the table with their layouts: [[web, layout], ...]. */
function webLayouts(view) {
  return (view.webs || ["main"]).map((web) => [web, BOOT.layouts[layoutName(view, web)]]).filter(([, layout]) => layout);
}

/** The empty Condition slots of `colour` whose Species is open and not installed:
 * [[slot, web], ...]. */
function openSlots(view, colour) {
  const found = [];
  for (const [web, layout] of webLayouts(view)) {
    for (const sp of Object.keys(layout)) {
      if (view.web[sp] || !isOpen(view, layout, sp)) continue;
      layout[sp].conditions.forEach((need, i) => {
        if (need === colour && !view.web[`${sp}:${i + 1}`]) found.push([`${sp}:${i + 1}`, web]);
      });
    }
  }
  return found;
}

// Environmental Changes: a Condition slot 2 takes a card once its slot 1 is filled.
const inOrder = (view, slot) => !slot.endsWith(":2") || !!view.web[slot.replace(/:2$/, ":1")];

// The discard reasons of the advanced rules that hold whatever comes before the card (null
// when the rule lets it through or the view cannot tell), for a card `c` given `colour`.
const RULE_REASONS = {
  associated_conditions: (view, c, ctx) => (c.symbol === "associated" && ctx.first ? "associated" : null),
  dependent_conditions: (view, c, ctx) => (c.symbol === "dependent" && ctx.first ? "dependent" : null),
  wetland: (view, c, ctx) => (c.type === "species" && ctx.web === "aquatic" && ctx.first ? "aquatic" : null),
  species_biodiversity: (view, c, ctx) => (c.type === "species" && ctx.side && ctx.side !== c.kind ? "side" : null),
  environmental_changes: (view, c, ctx, colour) => {
    if (!colour) return null;
    const open = openSlots(view, colour);
    return open.length && !open.some(([slot]) => inOrder(view, slot)) ? "order" : null;
  },
  invasive_species: (view, c, ctx) => (c.set === "invasive" && !ctx.firstPlayer ? "invasive" : null),
};

// Whether an open slot may take the card as far as the view can tell.
function mayTake(view, ctx, slot, web) {
  if (isOn(view, "environmental_changes") && !inOrder(view, slot)) return false;
  // the aquatic web takes a card only right after a blue one: never the first card revealed
  return !(web === "aquatic" && isOn(view, "wetland") && ctx.first);
}

// Why the card `c` given `colour` (its own, a Joker's chosen one) has no place: "" when it
// may have one.
function colourReason(view, c, ctx, colour, noSlot) {
  for (const mode of view.modes || []) {
    const reason = RULE_REASONS[mode] && RULE_REASONS[mode](view, c, ctx, colour);
    if (reason) return reason;
  }
  if (c.type !== "species") return openSlots(view, colour).some(([slot, web]) => mayTake(view, ctx, slot, web)) ? "" : noSlot;
  if (!ctx.layout) return "";
  if (view.web[c.id]) return "already_installed";
  if (!isOpen(view, ctx.layout, c.id)) return "species_not_open";
  return ctx.layout[c.id].conditions.every((_, i) => view.web[`${c.id}:${i + 1}`]) ? "" : "conditions_missing";
}

function mainPlantsInstalled(view) {
  const layout = BOOT.layouts[layoutName(view, "main")];
  return Object.keys(layout).every((sp) => layout[sp].parents.length || view.web[sp]);
}

/**
 * Why the public table says `seat`'s programmed card `id` will have no place (a reason
 * code of texts.js's REASONS), or "" when it may have one or the table cannot tell.
 */
export function noPlaceNow(view, id, seat = view.seat) {
  const c = { ...card(id), id };
  if (c.type === "pollution") return isOn(view, "species_reintroductions") && !mainPlantsInstalled(view) ? "pollution_early" : "";
  if (!["condition", "joker", "species"].includes(c.type)) return ""; // Cats, Reintroductions: played their own way
  const me = (view.players || []).find((p) => p.seat === seat) || {};
  const home = webLayouts(view).find(([, layout]) => layout[id]);
  const ctx = {
    first: revealsFirst(view, seat), // nothing is revealed before it
    firstPlayer: seat === view.first_player,
    side: me.side || null,
    web: home ? home[0] : null,
    layout: home ? home[1] : null,
  };
  if (c.type === "joker") return COLOUR_ORDER.some((colour) => !colourReason(view, c, ctx, colour, "joker_no_slot")) ? "" : "joker_no_slot";
  return colourReason(view, c, ctx, c.type === "condition" ? c.colour : null, "no_slot");
}
