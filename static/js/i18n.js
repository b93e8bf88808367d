// French and English: the language of the page, and t() to translate a UI string.
//
// Strings are written in English where they are used, wrapped in t() (as gettext does:
// the code stays readable and a missing translation shows the English); the French of
// every one of them is in locales/fr.js, which tests/server/test_translations.py keeps
// complete (tests/ui/test_i18n.py switches a real page).
//   t("Start the game")                      a plain string
//   t("Turn {turn} of {total}", {turn, total})   with values put in
//   tn("{n} card", "{n} cards", n)            singular or plural (French: 0 and 1 singular)
// Static markup in the templates is marked data-i18n (its text is the key; data-i18n="key"
// names a key for markup with tags inside) and data-i18n-attr="aria-label,title,..."
// (attributes whose value is the key); translatePage() translates them on load.
import FR from "./locales/fr.js";

export const LANGUAGES = { en: "English", fr: "Français" };
const STORAGE_KEY = "dameNature.lang";
const CATALOGUES = { fr: FR };

function stored() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch (err) {
    return null; // storage refused (private mode): the browser's language then
  }
}

/** The language to use: the one chosen on this browser, else the browser's first
 * language we have, else English. */
export function detectLanguage() {
  const chosen = stored();
  if (chosen && chosen in LANGUAGES) return chosen;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const base = String(wanted).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

export const lang = detectLanguage();
const catalogue = CATALOGUES[lang] || {};

// French elides "de" and "que" before a word that starts with a vowel: "En attente
// d'Ana", "connue d'Émile" (a name filled in), not "de Ana".
const ELIDES = /(^|[\s(])(de|que) \{(\w+)\}/g;
const VOWEL = /^[aeiouyàâäéèêëîïôöùûüÿœæ]/i;

/** ``text`` with each ``{name}`` filled from ``values`` (in French, "de" and "que"
 * elided before a vowel). */
export function fill(text, values) {
  if (!values) return text;
  if (lang === "fr") {
    text = text.replace(ELIDES, (whole, before, word, name) =>
      name in values && VOWEL.test(String(values[name])) ? `${before}${word === "de" ? "d'" : "qu'"}{${name}}` : whole);
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** ``key`` (the English text) in the page's language, with ``{name}`` filled from values. */
export function t(key, values) {
  return fill(catalogue[key] ?? key, values);
}

/** ``t(key)`` agreeing with the gender of what it tells about ("m" or "f", see
 * cards.js cardGender): French words agree ("installée", "installé"); the catalogue holds
 * the masculine form under ``key#m``, the feminine under the key itself. */
export function tg(key, gender, values) {
  const masculine = gender === "m" ? catalogue[`${key}#m`] : undefined;
  return masculine !== undefined ? fill(masculine, values) : t(key, values);
}

/** The colon that joins a name and what follows ("Darwin: ..."): French puts a
 * non-breaking space before it (as the catalogue's sentences do). */
export const COLON = lang === "fr" ? "\u00a0: " : ": ";

const plurals = new Intl.PluralRules(lang);

/** Singular or plural by n, as the page's language counts (Intl.PluralRules: French "one"
 * covers 0 and 1, English only 1); {n} is filled too. */
export function tn(one, other, n, values) {
  return t(plurals.select(n) === "one" ? one : other, { n, ...(values || {}) });
}

/** Remember the language on this browser and show the page in it. */
export function setLanguage(code) {
  if (!(code in LANGUAGES) || code === lang) return;
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch (err) {
    /* not remembered: still switch for this page */
  }
  location.reload(); // every screen is drawn again in the new language (the seat is kept)
}

/** A message of the server (always English) in the page's language: its own
 * translation when the catalogue has the sentence, else a sentence for its code
 * ("error:<code>"), else the server's words. */
export function serverMessage(code, message) {
  if (lang === "en") return message;
  return catalogue[message] ?? catalogue[`error:${code}`] ?? message;
}

/** A rule's title and summary in the page's language (``/api/modes`` carries both). */
export function modeTitle(mode) {
  if (!mode) return "";
  return (lang === "fr" && mode.title_fr) || mode.title || mode.mode || "";
}
export function modeSummary(mode) {
  if (!mode) return "";
  return (lang === "fr" && mode.summary_fr) || mode.summary || "";
}

function normalised(text) {
  return text.replace(/\s+/g, " ").trim();
}

/** Translate the markup marked data-i18n / data-i18n-attr under ``root``. */
export function translatePage(root = document) {
  document.documentElement.lang = lang;
  if (lang === "en") return;
  if (root === document && catalogue[document.title] !== undefined) document.title = catalogue[document.title];
  for (const el of root.querySelectorAll("[data-i18n]")) {
    const named = el.getAttribute("data-i18n");
    const key = named || normalised(el.textContent);
    const text = catalogue[key];
    if (text === undefined) continue;
    if (named) el.innerHTML = text; // our own catalogue's markup (<strong>, <code>...)
    else el.textContent = text;
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const name of el.getAttribute("data-i18n-attr").split(",")) {
      const value = el.getAttribute(name.trim());
      if (value && catalogue[value] !== undefined) el.setAttribute(name.trim(), catalogue[value]);
    }
  }
}

/** The header's language switch (a <select id="lang-select">). */
function wireSwitch() {
  const select = document.getElementById("lang-select");
  if (!select) return;
  select.value = lang;
  select.addEventListener("change", () => setLanguage(select.value));
}

translatePage();
wireSwitch();
