// What the server embeds in every page (routes/pages.py): the card catalogue, layouts,
// colours, the advanced rules, the paths, the discard reasons' sentences and the French
// grammar of the card names (`french`, from engine/french.py: `species` {id: {gender, the,
// of, to}}, `types` {type: gender}).
export const BOOT = JSON.parse(document.getElementById("boot-data").textContent);
