// The glossary (/glossary): Dame Nature's own terms, as the rulebook and the card faces
// use them, in English and French.
import { lang } from "../i18n.js";
import { BOOT, esc } from "../cards.js";
import { w } from "./words.js";

// [term EN, term FR, definition EN, definition FR]
export const TERMS = [
  ["Web of life", "Réseau du vivant", "The web the players build together in the middle of the table: 10 Species, each on its 2 Conditions. Complete it (the Aigle royal last) to win.", "Le réseau que les joueurs bâtissent ensemble au milieu de la table : 10 Espèces, chacune sur ses 2 Conditions. Complétez-le (l'Aigle royal en dernier) pour gagner."],
  ["Condition", "Condition", "A card of one colour: hydric (blue, H), thermal (yellow, T), geological (green, G) or atmospheric (violet, A). It goes in an empty place of its colour of an open Species.", "Une carte d'une couleur : hydrique (bleue, H), thermique (jaune, T), géologique (verte, G) ou atmosphérique (violette, A). Elle va sur une place vide de sa couleur d'une Espèce ouverte."],
  ["Joker", "Joker", "A multiple Condition card: it represents all 4 Conditions. Whoever reveals it chooses its colour.", "Une carte Condition multiple : elle représente les 4 Conditions. Qui la révèle choisit sa couleur."],
  ["Species", "Espèce", "A plant (first column) or animal card. A Species is installed once its 2 Conditions are in place.", "Une carte plante (première colonne) ou animal. Une Espèce s'installe quand ses 2 Conditions sont posées."],
  ["Open", "Ouverte", "The plants are open from the start; an animal opens once the 2 Species before it are installed.", "Les plantes sont ouvertes dès le début ; un animal s'ouvre quand les 2 Espèces avant lui sont installées."],
  ["Programming", "Programmation", "Every player at once chooses a card and places it face down. It can be changed until the reveal starts; then each says Ready.", "Tous les joueurs à la fois choisissent une carte et la posent face cachée. On peut la changer jusqu'à la révélation ; puis chacun dit Prêt."],
  ["Reveal", "Révélation", "From the first player, then clockwise (seat order), each player reveals their card and places it if it has a place; otherwise it is discarded.", "Depuis le premier joueur, puis dans le sens horaire (ordre des places), chacun révèle sa carte et la pose si elle a une place ; sinon elle est défaussée."],
  ["First player", "Premier joueur", "Holds the First Player card: reveals first and has one free Symbiosis this turn. The card passes to the left at the end of each turn.", "A la carte Premier joueur : révèle en premier et a une Symbiose gratuite ce tour-ci. La carte passe à gauche à la fin de chaque tour."],
  ["Discard pile", "Défausse", "The cards that could not be placed. The team may discard only so many and still win: 3, 2, 5 or 6 with 3, 4, 5 or 6 players.", "Les cartes qui n'ont pas pu être posées. L'équipe ne peut en défausser qu'un nombre limité pour gagner : 3, 2, 5 ou 6 à 3, 4, 5 ou 6 joueurs."],
  ["Collision", "Collision", "Two players reveal cards for the same last place: the one who reveals later has no place left and discards.", "Deux joueurs révèlent des cartes pour la même dernière place : celui qui révèle après n'a plus de place et sa carte est défaussée."],
  ["Symbiosis", "Symbiose", "The only way to share what you hold: turn over a Symbiosis card (or use the first player's free one) to Show, Give or swap with the discard pile.", "Le seul moyen de partager ce que l'on a : retourner une carte Symbiose (ou utiliser celle, gratuite, du premier joueur) pour Montrer, Donner ou échanger avec la défausse."],
  ["Show", "Montrer", "Show one of your cards to all the other players (to one only with Privileged Symbioses).", "Montrer une de vos cartes à tous les autres joueurs (à un seul avec les Symbioses privilégiées)."],
  ["Give", "Donner", "Give one of your cards to another player, who alone learns it and gives you one back.", "Donner une de vos cartes à un autre joueur, qui seul la connaît et vous en rend une."],
  ["Discard swap", "Échange avec la défausse", "Put one of your Condition cards on the discard pile and take any card of it.", "Mettre une de vos cartes Condition dans la défausse et y prendre n'importe quelle carte."],
  ["Advanced rules", "Règles avancées", "Twelve rules that change the game, in 4 paths of 3 stages; each stage adds its rule to the ones before.", "Douze règles qui changent le jeu, en 4 parcours de 3 étapes ; chaque étape ajoute sa règle aux précédentes."],
  ["Path", "Parcours", "Three stages played in a row with growing rules; win all three without a defeat to win the path.", "Trois étapes jouées à la suite, aux règles croissantes ; gagnez les trois sans défaite pour gagner le parcours."],
  ["Installed", "Installée", "A Species placed in the web on its 2 Conditions. Two Species installed one above the other open the animal they hold up.", "Une Espèce posée dans le réseau sur ses 2 Conditions. Deux Espèces installées l'une au-dessus de l'autre ouvrent l'animal qu'elles portent."],
  ["Ready", "Prêt", "Said once your card is programmed and you want no more Symbiosis; the reveal starts when every player is ready. A Symbiosis cancels every Ready.", "Se dit quand votre carte est programmée et que vous ne voulez plus de Symbiose ; la révélation commence quand tous sont prêts. Une Symbiose annule tous les Prêt."],
];

// the twelve advanced rules, as the rules picker names them
const RULE_TERMS = BOOT.modes.map((m) => [m.title, m.title_fr, m.summary, m.summary_fr]);

function draw() {
  const fr = lang === "fr";
  document.getElementById("glossary-title").textContent = w("glossary");
  document.getElementById("glossary").innerHTML = [...TERMS, ...RULE_TERMS].map(
    ([en, frTerm, def, defFr]) => `<dt id="term-${esc(en.toLowerCase().replace(/\s+/g, "-"))}">${esc(fr ? frTerm : en)}${fr ? "" : ` <span class="hint" lang="fr">(${esc(frTerm)})</span>`}</dt><dd>${esc(fr ? defFr : def)}</dd>`,
  ).join("");
}

draw();
