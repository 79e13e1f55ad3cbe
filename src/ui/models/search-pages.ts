// How many sessions the search box asks for (its own module: the search bench asks the same).

/** Sessions a keystroke's answer gives first (a screenful); the rest of the page follows in a second call. */
export const FIRST_SCREEN = 8;
/** Sessions a page of results holds (the first screen, then the rest; "More results" asks for another). */
export const PAGE = 20;
