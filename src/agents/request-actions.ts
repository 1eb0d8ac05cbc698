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

/** The kinds of action the request names ("log in", "act", …); empty when it only asks to look. */
export function namedActions(description: string): string[] {
  const text = withoutPagePaths(description.toLowerCase().replace(/"[^"]*"|'[^']*'|“[^”]*”/g, ' '));
  return ACTION_PATTERNS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
}

/** The words of doing the request uses, as it spells them ("change", "save"), in order, once each. */
export function namedActionWords(description: string): string[] {
  const text = withoutPagePaths(description.toLowerCase().replace(/"[^"]*"|'[^']*'|“[^”]*”/g, ' '));
  const found = ACTION_PATTERNS.flatMap(([, pattern]) => [...text.matchAll(new RegExp(pattern.source, 'g'))].map((m) => ({ word: m[0], at: m.index })));
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.word))];
}
