/**
 * Does the spec cover the request? Read deterministically from the request's words: each outcome it
 * expects (a quoted text, a count, "an error", "saved", "empty", a named element or page) must be matched
 * by an assertion, each quoted value it names by the spec's code, and each action it names by a step of
 * the kind that action needs. What is missing is named, so the model can act on it.
 *
 * Lenient on purpose where words are ambiguous (a named element matches when any of its words appears in
 * an assertion): a good spec must not be rejected. The proof run is what shows the assertions depend on
 * the actions; this shows the spec is about the request at all.
 */
import { isFunctionLike, SpecModel } from '../analysis/model.ts';
import { callsBefore, testCalls } from '../analysis/test-steps.ts';
import { VALUE_SETTERS } from '../analysis/playwright-api.ts';
import { ts } from '../util/typescript.js';
import { withoutPagePaths } from '../util/page-paths.ts';
import { pageObjectCalls } from './page-object-steps.ts';
import { namedActions, namedActionWords } from './request-actions.ts';
import { assertionTexts, flowOf, type AssertionText, type TestFlow } from './coverage-assertions.ts';

/** The issue id a missing part of the request is reported under. */
export const COVERAGE_RULE = 'request-coverage';

/** Where what the request expects to see starts: the words before it name what to do. */
const OUTCOME_MARKER = /\b(?:see|sees|seeing|shows?|showing|shown|displays|displayed|appears?|expect|expects|verify|verifies|ensure|make sure|check that|confirm that)\b/;
/** What ends a named element's phrase: "see the cart total in the cart" names the cart total; "the sign-in form" is one phrase. */
const PHRASE_END = /[,.;:!?]|(?<![\w-])(?:in|on|at|of|for|from|with|within|under|after|before|and|or|then|that|which|when|while|is|are|was|were|has|have|appears?|shows?|instead)(?![\w-])/;
const DETERMINERS = new Set(['the', 'a', 'an', 'its', 'it', 'them', 'they', 'this', 'these', 'those', 'my', 'your', 'their', 'his', 'her', 'our', 'new', 'some', 'all', 'every', 'each', 'whole', 'updated', 'same']);
/** Words that say what kind of thing is seen, not which one: any assertion's locator may be that kind. */
const GENERIC_WORDS = new Set(['page', 'pages', 'screen', 'view', 'heading', 'title', 'text', 'message', 'button', 'link', 'field', 'value', 'label', 'section', 'list', 'item', 'items', 'entry', 'entries', 'row', 'rows', 'element', 'content', 'thing', 'there', 'here', 'now', 'again', 'back', 'still', 'change', 'changes', 'result', 'results']);
const NUMBER_WORDS: Readonly<Record<string, string>> = { zero: '0', one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10', twelve: '12' };
const QUOTED = /"([^"]+)"|“([^”]+)”|(?<![a-z])'([^']+)'(?![a-z])/gi;

interface OutcomeKeyword {
  name: string;
  inRequest: RegExp;
  /** What an assertion that checks it shows in its text. */
  inAssertion: RegExp;
  advice: string;
}

const OUTCOME_KEYWORDS: readonly OutcomeKeyword[] = [
  {
    name: 'an error',
    inRequest: /\b(?:errors?|invalid|fails?|failure|rejected|warning)\b/,
    inAssertion: /error|invalid|incorrect|wrong|fail|alert|denied|warning|not valid|required|rejected/i,
    advice: 'assert the error message or the element that shows it',
  },
  {
    name: 'saved',
    inRequest: /\b(?:saved|success|successful(?:ly)?|succeeds?)\b/,
    inAssertion: /sav|success|updated|stored|confirm|done|thank/i,
    advice: 'assert the confirmation the app shows once it is saved, or the saved value after a reload',
  },
  {
    name: 'empty',
    inRequest: /\b(?:empty|nothing|none|no (?:results?|items?|matches|entries|\w+s))\b/,
    inAssertion: /empty|\bno\b|nothing|none|toHaveCount\(0\)|toBeHidden|\.not\.toBeVisible|toBeEmpty|\b0\b/i,
    advice: 'assert that the list is empty (toHaveCount(0)) or the message the app shows when it is',
  },
];

/** Words of an outcome that is something no longer or not there: what only a negated or empty check can show. */
const ABSENCE = /\b(?:empty|nothing|none|no|not|gone|removed|deleted|disappears?|disappeared|hidden|closed|cleared|dismissed|no longer|without|anymore|any more|zero)\b/;

interface ActionNeed {
  name: string;
  verbs: RegExp;
  /** The step methods that do it. */
  methods: ReadonlySet<string>;
  advice: string;
}

/** Verbs of a request that has the spec type or write something of its own choosing. */
const WRITING = /\b(?:add|create|post|publish|send|comment|reply|rename|edit|change|update|set|enter|type|write|fill|search|filter|invite|import|paste|submit|register|sign(?:ing)?[ -]?up|compose|name|title|label|tag)(?:s|es|ed|d|ing)?\b/;
const ANY_CHANGE = new Set(['fill', 'type', 'pressSequentially', 'insertText', 'click', 'dblclick', 'tap', 'press', 'check', 'uncheck', 'setChecked', 'selectOption', 'setInputFiles', 'dragTo', 'dragAndDrop', 'clear', 'down', 'up', 'dispatchEvent']);

/** The actions a request names that a step must do, most specific first; the rest need any state-changing step. */
const ACTION_NEEDS: readonly ActionNeed[] = [
  { name: 'upload', verbs: /\bupload(?:s|ed|ing)?\b/, methods: new Set(['setInputFiles']), advice: 'set the file with setInputFiles' },
  { name: 'drag', verbs: /\b(?:drag|reorder)(?:s|ged|ging|ed|ing)?\b/, methods: new Set(['dragTo', 'dragAndDrop', 'down', 'up']), advice: 'drag it with dragTo' },
  { name: 'type', verbs: /\b(?:enter|type|fill(?:s|ed|ing)? (?:in|out)|search|write|rename)(?:s|es|ed|d|ing)?\b/, methods: VALUE_SETTERS, advice: 'fill the field with the value' },
  { name: 'tick', verbs: /\b(?:un)?tick(?:s|ed|ing)?\b|\buncheck(?:s|ed|ing)?\b|\bcheck(?:s|ed|ing)? (?:the |a |an )?(?:box|checkbox|option)\b/, methods: new Set(['check', 'uncheck', 'setChecked', 'click', 'tap']), advice: 'check or uncheck it' },
];

/** A named thing that is an element on a page, not the page: "the sign-in form" is not seen by the page's title. */
/** Matchers that show an element visible, and so every element it is inside. */
const VISIBILITY = new Set(['toBeVisible', 'toBeInViewport']);
/** Words of an outcome that is a state of an element, which `toBeEnabled()` or `toBeChecked()` shows. */
const STATE_WORDS = /\b(?:enabled|disabled|editable|read-?only|active|inactive|checked|unchecked|ticked|unticked|selected|greyed|grayed|clickable)\b/;
const ELEMENT_NOUNS = /\b(?:form|button|field|input|list|table|message|dialog|modal|menu|banner|link|heading|box|card|row|item|items|panel|badge|label|status|total|count)\b/;
const PAGE_NOUNS = /\b(?:page|pages|screen|view|site|url|title)\b/;
/** Words of a named element that is a value: seeing it means reading what it says, not that it is there. */
const VALUE_WORDS = /\b(?:total|subtotal|sum|price|prices|amount|balance|count|counter|score|quantity|tally)\b/;

/** The parts of the request the spec does not cover, one sentence each; empty when it covers them all. */
export function uncoveredParts(description: string, code: string, file = 'candidate.spec.ts'): string[] {
  const model = SpecModel.fromText(file, code);
  const request = readRequest(description);
  const tests = model.tests().map((test) => flowOf(model, [...callsBefore(model, test), ...testCalls(model, test)]));
  const checks = checksOf(assertionTexts(model, tests), request);
  const missing = [
    ...referredInputGaps(request, checks),
    ...quotedOutcomeGaps(request, checks, typedValues(model, tests)),
    ...quotedInputGaps(model, tests, request, codeStrings(model)),
    ...countGaps(request, checks),
    ...keywordGaps(request, checks),
    ...namedElementGaps(request, checks),
  ];
  // "See the result" is not shown by checks that only say what is not there (not the first text, no error).
  if (missing.length === 0 && request.outcome.trim() !== '' && !ABSENCE.test(request.outcome) && checks.all.length > 0 && checks.positive.length === 0) {
    missing.push(`the request expects to see ${request.outcome.replace(OUTCOME_MARKER, '').trim() || 'something'} but every assertion checks only what is not there (negated, hidden, empty or none): assert what is shown`);
  }
  if (request.signInOnly && request.outcome.trim() !== '') missing.push(...goesOnAfterSigningIn(model, tests));
  const methods = stepMethods(model, tests, file, code);
  for (const need of request.actions) {
    if (![...methods].some((m) => need.methods.has(m))) missing.push(`the request asks to ${need.name} but the spec has no step that does it: ${need.advice}`);
  }
  return missing;
}

/** The spec's assertions, and those of them that can show what the request expects to see. */
interface Checks {
  all: AssertionText[];
  /** Not an assertion that something is not there (negated, hidden, none of it): that shows only an empty list. */
  positive: AssertionText[];
  /** Not one a hidden element passes too (in the page is not seen), nor a state unless that state is asked. */
  shown: AssertionText[];
  /** The hint for an outcome only such an assertion names. */
  onlyPresent: (matches: (a: AssertionText) => boolean) => string;
}

function checksOf(all: AssertionText[], request: ReadRequest): Checks {
  const positive = all.filter((a) => !a.absent);
  const shown = positive.filter((a) => !a.presenceOnly && (!a.stateOnly || STATE_WORDS.test(request.outcome)));
  const onlyPresent = (matches: (a: AssertionText) => boolean) => (positive.some((a) => !shown.includes(a) && matches(a)) ? ` (a hidden element passes its assertion too: toBeAttached, a count of one, an attribute, a role or an enabled state show it is in the page, not that it is seen; assert it is visible or its text)` : '');
  return { all, positive, shown, onlyPresent };
}

/** "add a todo "Pay rent" and see it": the page shows it, not the field it was typed into. */
function referredInputGaps(request: ReadRequest, { shown }: Checks): string[] {
  return request.referredInputs
    .filter((quote) => !shown.some((a) => a.matcher !== 'toHaveValue' && quotedIn(quote, a)))
    .map((quote) => `the request refers back to "${quote}" and expects to see it, but no assertion checks that the page shows it: assert it where it appears, e.g. await expect(<the element that shows it>).toContainText('${quote.replace(/'/g, "\\'")}')`);
}

function quotedOutcomeGaps(request: ReadRequest, { shown, onlyPresent }: Checks, typed: ReadonlyArray<{ value: string; line: number }>): string[] {
  return request.quotedOutcomes.flatMap((quote) => {
    const typing = request.asksToWrite || request.quotedInputs.some((input) => normal(input).includes(normal(quote))) ? undefined : typed.find((t) => normal(t.value).includes(normal(quote)));
    if (typing) return [`the request expects the app to show "${quote}", but the spec types it itself (line ${typing.line}), so the page shows it whatever the app does: type only what the request gives, and assert "${quote}" where the app shows it`];
    if (shown.some((a) => quotedIn(quote, a))) return [];
    return [`the request expects "${quote}" but no assertion checks it${onlyPresent((a) => quotedIn(quote, a))}: assert it, e.g. await expect(<the element that shows it>).toContainText('${quote.replace(/'/g, "\\'")}')`];
  });
}

function quotedInputGaps(model: SpecModel, tests: readonly TestFlow[], request: ReadRequest, strings: readonly string[]): string[] {
  return request.quotedInputs.flatMap((quote) => {
    if (!strings.some((s) => normal(s).includes(normal(quote)))) return [`the request names "${quote}" but the spec never uses it: use that exact value where the request does`];
    const overtyped = retypedUnchecked(model, tests, quote);
    return overtyped ? [`the spec types "${quote}" (line ${overtyped.typed}) but types over it in the same field (line ${overtyped.over}) before checking anything: assert what "${quote}" does before typing again`] : [];
  });
}

function countGaps(request: ReadRequest, { all }: Checks): string[] {
  return request.counts
    .filter((count) => !all.filter((a) => !a.negated).some((a) => new RegExp(`(?<![\\d.])${count.digits}(?![\\d.])`).test(a.text)))
    .map((count) => `the request expects ${count.phrase} but no assertion checks that number: assert it (e.g. toHaveCount(${count.digits}) or the text that shows it)`);
}

function keywordGaps(request: ReadRequest, { all, positive }: Checks): string[] {
  return OUTCOME_KEYWORDS.filter((keyword) => keyword.inRequest.test(request.outcome) && !(keyword.name === 'empty' ? all : positive).some((a) => keyword.inAssertion.test(a.text)))
    .map((keyword) => `the request expects ${keyword.name} but no assertion checks for one: ${keyword.advice}`);
}

function namedElementGaps(request: ReadRequest, { all, shown, onlyPresent }: Checks): string[] {
  return request.namedElements.flatMap((phrase) => {
    // Named only by the scope its element is looked up in, a check of something inside shows the named element
    // only when it shows it visible: the text of a user name inside a hidden dashboard passes too.
    const names = (a: AssertionText) => phrase.words.some((w) => a.text.toLowerCase().includes(stem(w))) && (phrase.absence || VISIBILITY.has(a.matcher) || phrase.words.some((w) => a.ownText.toLowerCase().includes(stem(w))));
    // What is to be seen gone is shown by a check that it is not there; an element by a check of it, not of the page's title or URL.
    const element = ELEMENT_NOUNS.test(phrase.text) && !PAGE_NOUNS.test(phrase.text);
    if (!(phrase.absence ? all : shown).some((a) => names(a) && !(element && a.ofPage) && !a.holdsAtStart)) {
      return [`the request expects to see ${phrase.text} but no assertion checks it${onlyPresent(names)}: assert the element or page that shows ${phrase.text}`];
    }
    // A value (a total, a count) is seen by reading it, as a number or by its name: the "Added to your cart" flash
    // names the cart, not its total, and `toBeVisible()` of the total reads nothing.
    const valueWords = phrase.words.filter((w) => VALUE_WORDS.test(w));
    const readsValue = (a: AssertionText) => !a.readsNothing && !a.beforeActing && names(a) && (/\d/.test(a.text) || valueWords.some((w) => a.text.toLowerCase().includes(stem(w))));
    if (phrase.absence || valueWords.length === 0 || shown.some(readsValue)) return [];
    return [`the request expects to see ${phrase.text}, a value, but no assertion reads it after the spec acts (one that it is visible shows it is there, not what it says; one before acting shows what it was): assert its text, e.g. toHaveText or toContainText with the value the request's actions make`];
  });
}

interface ReadRequest {
  /** The words after the first outcome marker: what the request expects to see. */
  outcome: string;
  /** Signing in is all the request asks to do: what it expects to see is where signing in leads. */
  signInOnly: boolean;
  quotedOutcomes: string[];
  quotedInputs: string[];
  /** It asks to type, add or write something, so the spec may type what it expects to see. */
  asksToWrite: boolean;
  /** The quoted inputs the outcome refers back to ("see it", "see them in the list"): to be seen, not only typed. */
  referredInputs: string[];
  counts: Array<{ phrase: string; digits: string }>;
  namedElements: NamedElement[];
  actions: ActionNeed[];
}

function readRequest(description: string): ReadRequest {
  const text = description.replace(/\s+/g, ' ').trim();
  const marker = OUTCOME_MARKER.exec(text.toLowerCase().replace(QUOTED, (m) => ' '.repeat(m.length)));
  const split = marker ? marker.index : text.length;
  const quotes = [...text.matchAll(QUOTED)].map((m) => ({ value: (m[1] ?? m[2] ?? m[3] ?? '').trim(), at: m.index })).filter((q) => q.value !== '');
  const outcome = text.slice(split).toLowerCase();
  const unquotedOutcome = outcome.replace(QUOTED, ' ');
  const doing = withoutPagePaths(text.slice(0, split).toLowerCase().replace(QUOTED, ' '));
  const named = namedActionWords(doing);
  const kinds = namedActions(doing);
  const actions: ActionNeed[] = [];
  for (const need of ACTION_NEEDS) if (need.verbs.test(doing)) actions.push(need);
  if (kinds.includes('log in')) actions.push({ name: 'sign in', verbs: /$^/, methods: VALUE_SETTERS, advice: 'fill the sign-in form with the declared credentials and submit it' });
  if (actions.length === 0 && named.length > 0) actions.push({ name: named.join(', '), verbs: /$^/, methods: ANY_CHANGE, advice: 'click, fill or press what the request names' });
  return {
    outcome: unquotedOutcome,
    signInOnly: kinds.length === 1 && kinds[0] === 'log in',
    quotedOutcomes: quotes.filter((q) => q.at >= split).map((q) => q.value),
    quotedInputs: quotes.filter((q) => q.at < split).map((q) => q.value),
    asksToWrite: WRITING.test(doing),
    referredInputs: referredInputs(outcome, quotes.filter((q) => q.at < split).map((q) => q.value)),
    counts: countsIn(unquotedOutcome),
    namedElements: namedElementsIn(unquotedOutcome),
    actions,
  };
}

/** The text values the tests type (`fill('1 item left')`), with their lines. */
function typedValues(model: SpecModel, tests: readonly TestFlow[]): Array<{ value: string; line: number }> {
  return tests.flatMap(({ calls }) => calls.flatMap((call) => {
    const value = typedText(model, call);
    return value ? [{ value, line: model.position(call).line }] : [];
  }));
}

/** What a call types or selects, when it is such a step and its value is known. */
function typedText(model: SpecModel, call: ts.CallExpression): string | undefined {
  return VALUE_SETTERS.has(model.callee(call).name ?? '') && call.arguments[0] ? model.stringValue(call.arguments[0]) : undefined;
}

/**
 * A quoted input every test types and then types over in the same field before any assertion (`fill('zebra')`,
 * Enter, `fill('locators')`, Enter, then the checks): what the request's value did is never looked at.
 */
function retypedUnchecked(model: SpecModel, tests: readonly TestFlow[], quote: string): { typed: number; over: number } | undefined {
  let found: { typed: number; over: number } | undefined;
  for (const { calls } of tests) {
    const at = calls.findIndex((call) => typesQuote(model, call, quote));
    if (at < 0) continue;
    const field = model.text(model.resolve(model.callee(calls[at]!).receiver!));
    const over = calls.findIndex((call, index) => {
      if (index <= at || !VALUE_SETTERS.has(model.callee(call).name ?? '')) return false;
      const receiver = model.callee(call).receiver;
      // Clearing the field (`fill('')`) is not typing something else.
      return receiver !== undefined && model.text(model.resolve(receiver)) === field && !typesQuote(model, call, quote) && typedText(model, call) !== '';
    });
    const checked = calls.findIndex((call, index) => index > at && model.expectation(call) !== undefined);
    if (over < 0 || (checked >= 0 && checked < over)) return undefined;
    found ??= { typed: model.position(calls[at]!).line, over: model.position(calls[over]!).line };
  }
  return found;
}

function typesQuote(model: SpecModel, call: ts.CallExpression, quote: string): boolean {
  const value = typedText(model, call);
  return value !== undefined && normal(value).includes(normal(quote)) && model.callee(call).receiver !== undefined;
}

/**
 * "see it (in the list)" refers to the last quoted input, "see them" to all of them; "check that it shows
 * "Saved"" names its own outcome.
 */
function referredInputs(outcome: string, inputs: readonly string[]): string[] {
  const pronoun = new RegExp(`^(?:${OUTCOME_MARKER.source})\\s+(it|them)(?=\\s+(?:in|on|at|under|among|listed|added|shown|there|again)\\b|\\s*(?:[,.;!]|$))`).exec(outcome)?.[1];
  if (!pronoun || inputs.length === 0) return [];
  return pronoun === 'it' ? inputs.slice(-1) : [...inputs];
}

function countsIn(outcome: string): Array<{ phrase: string; digits: string }> {
  const found: Array<{ phrase: string; digits: string }> = [];
  for (const [phrase, number = '', noun = ''] of outcome.matchAll(/\b(\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten|twelve) ([a-z]+)/g)) {
    // "one of the items", "the one I added": a pronoun, not a count.
    if (noun === 'of' || DETERMINERS.has(noun)) continue;
    found.push({ phrase, digits: NUMBER_WORDS[number] ?? number });
  }
  return found;
}

/** An element or page the request expects to see; `absence`: to see it gone ("the todo removed"). */
interface NamedElement {
  text: string;
  words: string[];
  absence: boolean;
}

/** "see the cart total", "shows the reports page": the phrase after each outcome verb, up to where it ends. */
function namedElementsIn(outcome: string): NamedElement[] {
  const found: NamedElement[] = [];
  const keywords = OUTCOME_KEYWORDS.map((k) => k.inRequest);
  for (const part of outcome.split(new RegExp(OUTCOME_MARKER.source, 'g')).slice(1)) {
    const end = PHRASE_END.exec(part);
    const phrase = (end ? part.slice(0, end.index) : part).trim();
    if (phrase === '' || keywords.some((k) => k.test(phrase)) || /\d/.test(phrase)) continue;
    const words = phrase.split(/[^a-z]+/).filter((w) => w.length > 2 && !DETERMINERS.has(w) && !GENERIC_WORDS.has(w) && !ABSENCE.test(w));
    if (words.length > 0) found.push({ text: `"${phrase}"`, words, absence: ABSENCE.test(phrase) });
  }
  return found;
}


/**
 * For a request only to sign in and see something: a test that, after signing in, opens a page or acts before its
 * last assertion sees where it went, not where signing in leads (a sign-in whose redirect is broken passes it).
 */
function goesOnAfterSigningIn(model: SpecModel, tests: readonly TestFlow[]): string[] {
  return tests.flatMap(({ calls, acts, signIn }) => {
    if (signIn.size === 0) return [];
    const lastAssertion = calls.findLastIndex((call) => model.expectation(call) !== undefined);
    for (let index = Math.max(...signIn) + 1; index < lastAssertion; index++) {
      const call = calls[index]!;
      if (!acts[index] && model.callee(call).name !== 'goto') continue;
      const { line } = model.position(call);
      return [`the request expects signing in to lead to what it names, but after signing in the spec goes on by itself (line ${line}: ${model.text(call).replace(/\s+/g, ' ')}) before its last assertion: assert what signing in shows, before opening or clicking anything else`];
    }
    return [];
  });
}


/** The string values the code uses; a test's or step's title is not a use. */
function codeStrings(model: SpecModel): string[] {
  const titles = new Set<ts.Node>();
  for (const call of model.calls) {
    const first = call.arguments[0];
    // A hook's first argument is its body, not a title, and test.extend's are fixtures, whose code the test runs.
    if (first && !isFunctionLike(first) && !ts.isObjectLiteralExpression(first) && model.playwrightPath(call.expression)?.startsWith('test')) titles.add(first);
  }
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (titles.has(n)) return;
    if (ts.isStringLiteralLike(n)) found.push(n.text);
    ts.forEachChild(n, visit);
  };
  visit(model.sourceFile);
  return found;
}

/**
 * The methods of the steps that act on the page, in every test and the hooks before it (helpers followed), and those done inside
 * the project's page objects and helpers the tests call (`await loginPage.signIn(user, pass)`).
 */
function stepMethods(model: SpecModel, tests: readonly TestFlow[], file: string, code: string): Set<string> {
  const methods = new Set<string>();
  const other = new Set<string>();
  for (const { calls, acts } of tests) {
    calls.forEach((call, index) => {
      const { name } = model.callee(call);
      if (!name) return;
      if (acts[index]) methods.add(name);
      else other.add(name);
    });
  }
  if (other.size > 0) for (const name of pageObjectCalls(file, code, other)) methods.add(name);
  return methods;
}

/**
 * Whether an assertion checks a quoted text: it names it, or one of its regular expressions holds it as written
 * (anchors, escapes and case aside). A pattern that merely matches it (`/Total: [$](8|0)/`, `/\d+ items/`)
 * would match other outcomes too.
 */
function quotedIn(quote: string, assertion: AssertionText): boolean {
  return normal(assertion.text).includes(normal(quote)) || assertion.patterns.some((p) => normal(literalOf(p.source)).includes(normal(quote)) && pins(p, quote));
}

/**
 * Whether a pattern that holds the quote as written also tells it from its near variants: another number in
 * it, its last or first character gone. `/Total: \$8|Total: \$0/` and `/Total: \$8?/` hold "Total: $8" and match
 * the $0 a broken cart shows.
 */
function pins(pattern: RegExp, quote: string): boolean {
  const variants = [quote.slice(0, -1), quote.slice(1), ...(/\d/.test(quote) ? [quote.replace(/\d/g, (d) => (d === '0' ? '1' : '0'))] : [])];
  const tellsApart = (text: string, swap: (variant: string) => string) => pattern.test(text) && !variants.some((variant) => pattern.test(swap(variant)));
  // The quote alone (`/Total: \$8\b/`), or inside the rest of the pattern's text (`/Total: \$8\.00/`).
  const literal = literalOf(pattern.source);
  const at = literal.toLowerCase().indexOf(quote.toLowerCase());
  return tellsApart(quote, (variant) => variant) || (at >= 0 && tellsApart(literal, (variant) => literal.slice(0, at) + variant + literal.slice(at + quote.length)));
}

/** A pattern's source as the text it matches when it is plain text: anchors dropped, escapes undone. */
function literalOf(source: string): string {
  return source.replace(/^\^/, '').replace(/(?<!\\)\$$/, '').replace(/\\(.)/g, '$1');
}

function normal(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** A word's stem for matching identifiers and labels: "products" matches products-heading, "saved" matches save. */
function stem(word: string): string {
  return word.replace(/(?:ies|es|s|ed|ing)$/, '') || word;
}
