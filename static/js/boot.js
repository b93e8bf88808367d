// What the server embeds in every page (routes/pages.py): the card catalogue, layouts,
// colours, the advanced rules, the paths and the discard reasons' sentences.
export const BOOT = JSON.parse(document.getElementById("boot-data").textContent);
