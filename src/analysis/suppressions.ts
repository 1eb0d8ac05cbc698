/**
 * Suppression comments in people's own specs, as eslint users write them:
 *
 *   // scribe-disable-next-line no-wait-for-timeout -- the payment sandbox needs it
 *   await page.waitForTimeout(1000); // scribe-disable-line no-wait-for-timeout
 *   /* scribe-disable no-nth-methods *\/ … /* scribe-enable no-nth-methods *\/
 *
 * `eslint-disable…` comments naming `playwright/<id>` are honoured for Scribe's rule of the same id
 * (other eslint rules are not Scribe's business). A Scribe directive without rule ids covers every
 * rule. A Scribe directive that suppresses nothing is reported, as eslint's --report-unused-disable-directives
 * does; an eslint comment never is (eslint judges its own: its rule of the same name may fire where Scribe's,
 * on purpose, does not, as on a conditional `test.skip`). Model-written specs may not suppress anything: the validator applies none of this to them and
 * the allow-list gate reports each directive.
 */
import { ts } from '../util/typescript.js';

export type DirectiveKind = 'disable-next-line' | 'disable-line' | 'disable' | 'enable';

export interface Directive {
  kind: DirectiveKind;
  /** Scribe rule ids; undefined: every rule. */
  rules: string[] | undefined;
  /** Where the comment is: its offset, and (1-based) its line and column, for the lines it covers. */
  pos: number;
  line: number;
  column: number;
  /** As written, for messages: `scribe-disable-next-line` or `eslint-disable-next-line`. */
  keyword: string;
}

const DIRECTIVE = /^\s*(scribe|eslint)-(disable-next-line|disable-line|disable|enable)(?=\s|$)([\s\S]*)$/;
const ESLINT_PLUGIN_PREFIX = 'playwright/';

/** Every suppression directive in the file's comments (never in strings or templates: found through the syntax tree). */
export function parseDirectives(sourceFile: ts.SourceFile): Directive[] {
  const text = sourceFile.text;
  // Most files hold no directive: a look at the text spares walking every node's comments.
  if (!text.includes('-disable') && !text.includes('-enable')) return [];
  const seen = new Set<number>();
  const directives: Directive[] = [];
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      const raw = text.slice(range.pos, range.end);
      const directive = directiveOf(range.kind === ts.SyntaxKind.SingleLineCommentTrivia ? raw.slice(2) : raw.slice(2, -2));
      if (!directive) continue;
      const position = sourceFile.getLineAndCharacterOfPosition(range.pos);
      directives.push({ ...directive, pos: range.pos, line: position.line + 1, column: position.character + 1 });
    }
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return directives.sort((a, b) => a.line - b.line || a.column - b.column);
}

function directiveOf(comment: string): Omit<Directive, 'pos' | 'line' | 'column'> | undefined {
  const match = DIRECTIVE.exec(comment);
  if (!match) return undefined;
  const [, tool, kind, rest] = match as unknown as [string, 'scribe' | 'eslint', DirectiveKind, string];
  // `-- reason` ends the rule list, in both tools' syntax.
  const list = rest.split(/\s--\s|\s--$/)[0]!;
  const named = list.split(',').map((id) => id.trim()).filter(Boolean);
  const keyword = `${tool}-${kind}`;
  if (tool === 'scribe') return { kind, rules: named.length > 0 ? named : undefined, keyword };
  const ours = named.filter((id) => id.startsWith(ESLINT_PLUGIN_PREFIX)).map((id) => id.slice(ESLINT_PLUGIN_PREFIX.length));
  return ours.length > 0 ? { kind, rules: ours, keyword } : undefined;
}

export interface Suppressible {
  rule: string;
  line: number;
}

/**
 * Splits findings into those kept and those a directive covers, and returns the Scribe directives that
 * covered none, of those naming a rule of `known` (or none). An eslint comment is eslint's to call unused.
 */
export function applyDirectives<T extends Suppressible>(issues: readonly T[], directives: readonly Directive[], known: ReadonlySet<string>): { kept: T[]; unused: Directive[] } {
  const used = new Set<Directive>();
  const kept = issues.filter((issue) => {
    const covering = directives.find((d) => covers(d, directives, issue));
    if (covering) used.add(covering);
    return covering === undefined;
  });
  const unused = directives.filter((d) => d.keyword.startsWith('scribe-') && d.kind !== 'enable' && !used.has(d) && (d.rules === undefined || d.rules.some((id) => known.has(id))));
  return { kept, unused };
}

function names(directive: Directive, rule: string): boolean {
  return directive.rules === undefined || directive.rules.includes(rule);
}

function covers(directive: Directive, all: readonly Directive[], issue: Suppressible): boolean {
  if (!names(directive, issue.rule)) return false;
  if (directive.kind === 'disable-next-line') return issue.line === directive.line + 1;
  if (directive.kind === 'disable-line') return issue.line === directive.line;
  if (directive.kind !== 'disable' || issue.line < directive.line) return false;
  // A block runs to the first enable of the same rule after it, else to the end of the file.
  const enabled = all.find((d) => d.kind === 'enable' && d.line > directive.line && d.line <= issue.line && (d.rules === undefined || names(d, issue.rule)));
  return enabled === undefined;
}
