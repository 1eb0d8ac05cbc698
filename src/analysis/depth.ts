/**
 * How far the analysis of a spec follows a chain (an alias of an alias, a property of a constant object, a
 * helper calling a helper, a nested destructuring) before it gives up: one budget, so the model and the rules
 * stop at the same link of the same chain.
 */
export const MAX_DEPTH = 16;
