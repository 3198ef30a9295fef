// How the page and the site's search worker agree on when Material's search may build its index.
//
// They talk over one BroadcastChannel, which works whichever of the two starts first: the
// worker asks as soon as it exists, and the page answers a question it has already settled,
// besides saying so unprompted at the moment it settles it (search-gate.js).

export const SEARCH_CHANNEL = "scratchgrad:search";

/** The worker's question, posted when it is created. */
export const MAY_SEARCH_START = "may search start?";

/** The page's answer: Material's search worker may build its index now. */
export const SEARCH_MAY_START = "search may start";
