// Inline SVG icons (no icon font, no emoji font needed). Each returns markup with
// aria-hidden: the meaning is always also given as text next to it.

const svg = (body, cls = "") =>
  `<svg class="icon ${cls}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${body}</svg>`;

export const ICONS = {
  // hydric: a water drop
  blue: svg('<path d="M12 2.5C9 7 5.5 10.6 5.5 14.6a6.5 6.5 0 0 0 13 0C18.5 10.6 15 7 12 2.5z" fill="currentColor"/>'),
  // thermal: a sun
  yellow: svg('<circle cx="12" cy="12" r="4.6" fill="currentColor"/><g stroke="currentColor" stroke-width="2.1" stroke-linecap="round"><path d="M12 1.8v3M12 19.2v3M1.8 12h3M19.2 12h3M4.8 4.8l2.1 2.1M17.1 17.1l2.1 2.1M4.8 19.2l2.1-2.1M17.1 6.9l2.1-2.1"/></g>'),
  // geological: a mountain
  green: svg('<path d="M1.8 20.5 9 7.5l3.6 6 2.4-3.6 7.2 10.6z" fill="currentColor"/><path d="M9 7.5l1.9 3.2-1.9-.9-1.8 1z" fill="#fff" opacity=".7"/>'),
  // atmospheric: wind
  violet: svg('<g fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"><path d="M3 9h11a3 3 0 1 0-3-3"/><path d="M3 14h15a3 3 0 1 1-3 3"/><path d="M3 18.5h7"/></g>'),
  joker: svg('<path d="M12 2.2l2.7 6.2 6.7.6-5.1 4.4 1.6 6.6L12 16.5 6.1 20l1.6-6.6L2.6 9l6.7-.6z" fill="currentColor"/>'),
  plant: svg('<path d="M12 21v-8" stroke="currentColor" stroke-width="2" stroke-linecap="round"/><path d="M12 13C12 7 16 3.5 21 3.5c0 6-4 9.5-9 9.5zM12 15c0-4.5-3-7.5-8.5-7.5 0 4.8 3.4 7.5 8.5 7.5z" fill="currentColor"/>'),
  animal: svg('<ellipse cx="12" cy="16" rx="5" ry="4.2" fill="currentColor"/><circle cx="5.3" cy="10.2" r="2.2" fill="currentColor"/><circle cx="9.3" cy="6.2" r="2.3" fill="currentColor"/><circle cx="14.7" cy="6.2" r="2.3" fill="currentColor"/><circle cx="18.7" cy="10.2" r="2.2" fill="currentColor"/>'),
  cat: svg('<path d="M4 21V8l3.2-5 2.6 4.2h4.4L16.8 3 20 8v13z" fill="currentColor"/><circle cx="9" cy="12.5" r="1.3" fill="#fff"/><circle cx="15" cy="12.5" r="1.3" fill="#fff"/><path d="M10.8 16h2.4l-1.2 1.3z" fill="#fff"/>'),
  pollution: svg('<path d="M2 21V11l5 3V11l5 3V11l5 3V4h4v17z" fill="currentColor"/><path d="M17.5 2.5c1.5-1 3-.6 3.5.4" stroke="currentColor" stroke-width="1.6" fill="none" stroke-linecap="round"/>'),
  reintroduction: svg('<g fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"><path d="M20 12a8 8 0 0 1-13.7 5.6"/><path d="M4 12a8 8 0 0 1 13.7-5.6"/><path d="M18 2.8v3.8h-3.8M6 21.2v-3.8h3.8"/></g>'),
  // advanced-rule symbols on Condition cards
  associated: svg('<g fill="none" stroke="currentColor" stroke-width="2.3" stroke-linecap="round"><path d="M10 14a4 4 0 0 0 5.7 0l3.5-3.5a4 4 0 0 0-5.7-5.7L12 6.3"/><path d="M14 10a4 4 0 0 0-5.7 0l-3.5 3.5a4 4 0 0 0 5.7 5.7l1.5-1.5"/></g>'),
  dependent: svg('<path d="M12 21v-6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/><path d="M12 15C12 10 15 7 20 7c0 5-3 8-8 8z" fill="currentColor"/><path d="M3 5h7m0 0-3-3m3 3-3 3" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>'),
  temporary: svg('<path d="M6 2.5h12M6 21.5h12M7 2.5c0 5 5 6.5 5 9.5s-5 4.5-5 9.5M17 2.5c0 5-5 6.5-5 9.5s5 4.5 5 9.5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/><path d="M9 19.5h6l-3-3.5z" fill="currentColor"/>'),
  wetland: svg('<g fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><path d="M2 16c2.5-2 4.5-2 7 0s4.5 2 7 0 4.5-2 6 0"/><path d="M2 20.5c2.5-2 4.5-2 7 0s4.5 2 7 0 4.5-2 6 0"/><path d="M12 12V3M12 7l-3-2.5M12 9l3-2.5"/></g>'),
  invasive: svg('<path d="M12 2 2 21h20z" fill="currentColor"/><path d="M12 9v6" stroke="#fff" stroke-width="2.2" stroke-linecap="round"/><circle cx="12" cy="18" r="1.3" fill="#fff"/>'),
  first: svg('<path d="M5 21V3" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/><path d="M6 3.5h13l-3 4.5 3 4.5H6z" fill="currentColor"/>'),
  symbiosis: svg('<g fill="none" stroke="currentColor" stroke-width="2.1"><circle cx="9" cy="12" r="6"/><circle cx="15" cy="12" r="6"/></g>'),
  ready: svg('<path d="M4 12.5l5 5L20 6.5" fill="none" stroke="currentColor" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>'),
  hand: svg('<g fill="currentColor"><rect x="3" y="5" width="10" height="15" rx="2" transform="rotate(-12 8 12)"/><rect x="10" y="4" width="10" height="15" rx="2" transform="rotate(10 15 11)" opacity=".75"/></g>'),
  facedown: svg('<rect x="5" y="2.5" width="14" height="19" rx="2.5" fill="currentColor"/><path d="M9 12c0-3 3-5 6-5 0 3-3 5-6 5zm0 0v5" stroke="#fff" stroke-width="1.5" fill="none"/>'),
  leaf: svg('<path d="M5 19C5 10 11 4 21 3c-1 10-7 16-16 16z" fill="currentColor"/><path d="M5 19 14 10" stroke="#fff" stroke-width="1.5" stroke-linecap="round"/>'),
  help: svg('<circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="2"/><path d="M9.2 9.3a2.9 2.9 0 1 1 4 2.7c-.8.4-1.2 1-1.2 1.9v.6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/><circle cx="12" cy="17.6" r="1.3" fill="currentColor"/>'),
  copy: svg('<rect x="8" y="8" width="12" height="13" rx="2" fill="none" stroke="currentColor" stroke-width="2"/><path d="M16 8V5a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h2" fill="none" stroke="currentColor" stroke-width="2"/>'),
  // a bot: a robot's head with its antenna
  bot: svg('<path d="M12 2.5v3" stroke="currentColor" stroke-width="2" stroke-linecap="round"/><circle cx="12" cy="2.6" r="1.4" fill="currentColor"/><rect x="4" y="6.5" width="16" height="12.5" rx="3.2" fill="currentColor"/><circle cx="9" cy="12.2" r="1.9" fill="#fff"/><circle cx="15" cy="12.2" r="1.9" fill="#fff"/><path d="M9 16.2h6" stroke="#fff" stroke-width="1.6" stroke-linecap="round"/><path d="M2 11v4M22 11v4" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>'),
  eye: svg('<path d="M1.5 12S5.5 5 12 5s10.5 7 10.5 7S18.5 19 12 19 1.5 12 1.5 12z" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3.2" fill="currentColor"/>'),
  discard: svg('<path d="M4 7h16M9 7V4h6v3M6 7l1 14h10l1-14" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/>'),
  // a paced game's clock
  clock: svg('<circle cx="12" cy="12" r="9.5" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 6.5V12l3.8 2.4" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>'),
  web: svg('<g stroke="currentColor" stroke-width="1.6"><path d="M5 5l7 7M5 19l7-7M12 12h7"/></g><g fill="currentColor"><circle cx="5" cy="5" r="2.6"/><circle cx="5" cy="19" r="2.6"/><circle cx="12" cy="12" r="2.8"/><circle cx="19" cy="12" r="2.6"/></g>'),
};

export function icon(name, extraClass = "") {
  const markup = ICONS[name] || "";
  return extraClass ? markup.replace('class="icon ', `class="icon ${extraClass} `) : markup;
}
