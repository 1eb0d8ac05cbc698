/**
 * The actions a request names, read deterministically from its words: "add the Coffee Mug to the cart",
 * "change the display name and save". A request that names one asks for a spec that does something, so a
 * spec with nothing to prove after its last navigation does not answer it.
 */
import { withoutPagePaths } from '../util/page-paths.ts';

/**
 * Verbs (and phrasal verbs) of doing, not of looking: "see", "open", "show" and "check that" are not here. A verb
 * naming a part of the page ("the search page", "the order history", "the comment box") is a noun there.
 */
const ACTION_PATTERNS: ReadonlyArray<[string, RegExp]> = [
  ['log in', /\b(?:log|sign)(?:s|ged|ging)?[ -]?in\b|\blogin\b/],
  ['log out', /\b(?:log|sign)(?:s|ged|ging)?[ -]?out\b|\blogout\b/],
  ['sign up', /\bsign(?:s|ed|ing)?[ -]?up\b|\bregister(?:s|ed|ing)?\b/],
  ['check out', /\bcheck(?:s|ed|ing)?[ -]?out\b/],
  ['tick', /\b(?:un)?tick(?:s|ed|ing)?\b|\buncheck(?:s|ed|ing)?\b|\bcheck(?:s|ed|ing)? (?:the |a |an )?(?:box|checkbox|option)\b/],
  [
    'act',
    /\b(?:add|remove|delete|change|edit|update|save|submit|fill(?:s|ed|ing)? (?:in|out)|enter|type|click|press|tap|select|choose|pick|toggle|search|filter|sort|create|upload|drag|move|mark|complete|send|apply|clear|rename|reorder|increase|decrease|increment|decrement|buy|order|subscribe|unsubscribe|dismiss|expand|collapse|rate|comment|reply|invite|assign|archive|restore|reset|cancel|confirm|accept|reject|approve|book|pay|post|publish|upvote|like|follow|unfollow|import|export|duplicate|copy|paste|undo|redo|switch|enable|disable|set|download|attach|share|bookmark|favou?rite|vote|star|unstar)(?:s|es|ed|d|ing)?\b(?![ -](?:page|box|field|bar|button|results?|input|form|link|menu|tab|icon|history|section|panel|dialog|modal)\b)/,
  ],
];

/**
 * What makes a verb's form a noun or an adjective there: right after an article or a possessive, any form ("the
 * post", "my orders", "the completed todos", "the user's bookmarks"); after a number or a quantifier, a plural
 * one ("2 replies", "all comments"). "a"/"an" and "that" are left out: "leave a comment" is done by its noun, and
 * "that" may start a clause. Reading an action where there is none costs a retry; missing one would let a spec
 * that does nothing pass.
 */
const NOUN_AFTER = /(?:^|\s)(?:the|my|your|our|their|its|his|her|this|these|those|each|every|\w+'s)\s+$/;
const PLURAL_NOUN_AFTER = /(?:^|\s)(?:all|any|some|no|both|many|several|few|\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+$/;

function isNounUse(word: string, before: string): boolean {
  return NOUN_AFTER.test(before) || (/(?:s|es)$/.test(word) && PLURAL_NOUN_AFTER.test(before));
}

/** The request's words of each kind of action, with where they stand (quoted values and page paths left out). */
function actionWordsIn(description: string): Array<{ kind: string; word: string; at: number }> {
  const text = withoutPagePaths(description.toLowerCase().replace(/"[^"]*"|'[^']*'|“[^”]*”/g, ' '));
  return ACTION_PATTERNS.flatMap(([kind, pattern]) =>
    [...text.matchAll(new RegExp(pattern.source, 'g'))]
      .filter((m) => !isNounUse(m[0], text.slice(0, m.index)))
      .map((m) => ({ kind, word: m[0], at: m.index })),
  );
}

/** The kinds of action the request names ("log in", "act", …); empty when it only asks to look. */
export function namedActions(description: string): string[] {
  const kinds = new Set(actionWordsIn(description).map((found) => found.kind));
  return ACTION_PATTERNS.map(([kind]) => kind).filter((kind) => kinds.has(kind));
}

/** The words of doing the request uses, as it spells them ("change", "save"), in order, once each. */
export function namedActionWords(description: string): string[] {
  return [...new Set(actionWordsIn(description).sort((a, b) => a.at - b.at).map((found) => found.word))];
}
