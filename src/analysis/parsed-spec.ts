/**
 * A spec parsed once: its nodes indexed by kind, each linked to its parent, the names each scope declares and
 * the declaration an identifier refers to, and a memo of the answers the layers above compute per node. The
 * bottom layer of SpecModel (src/analysis/model.ts).
 */
import { ts } from '../util/typescript.js';
import { collectDeclarations, declarationName, isBindingPropertyName, isDeclaringName, isScopeContainer, scriptKindOf, type Scope } from './syntax.ts';
import type { TypeDiagnostic } from './type-diagnostic.ts';

export interface Position {
  line: number;
  column: number;
}

/**
 * A question SpecModel.memo answers once per node, typed by its answer: each asker holds its own key, so
 * two questions never share answers by a coincidence of names.
 */
export class MemoKey<T> {
  declare private readonly answer: T;
  constructor(readonly question: string) {}
}

const DECLARATION_OF = new MemoKey<ts.Node | undefined>('the declaration an identifier refers to');

export class ParsedSpec {
  readonly sourceFile: ts.SourceFile;

  readonly fileName: string;

  /** The nodes of each kind, in source order, indexed by kind (a plain array: the index walk fills it for every node). */
  private readonly buckets: ts.Node[][] = [];

  private readonly scopes = new Map<ts.Node, Scope>();

  private readonly memos = new Map<MemoKey<unknown>, Map<ts.Node, unknown>>();

  protected readonly semanticDiagnosticsOf: (() => readonly TypeDiagnostic[]) | undefined;

  protected readonly checkerOf: (() => ts.TypeChecker) | undefined;

  /** `semanticDiagnostics` and `checker` come from a compiler program when the file is type-checked. */
  constructor(sourceFile: ts.SourceFile, semanticDiagnostics?: () => readonly TypeDiagnostic[], checker?: () => ts.TypeChecker) {
    this.sourceFile = sourceFile;
    this.semanticDiagnosticsOf = semanticDiagnostics;
    this.checkerOf = checker;
    this.fileName = sourceFile.fileName;
    // One walk indexes the nodes by kind and links each to its parent (the parser is not asked to: that
    // would be a second walk of every node).
    let parent: ts.Node = sourceFile;
    const visit = (node: ts.Node): void => {
      (node as { parent: ts.Node }).parent = parent;
      const bucket = this.buckets[node.kind];
      if (bucket) bucket.push(node);
      else this.buckets[node.kind] = [node];
      parent = node;
      ts.forEachChild(node, visit);
      parent = node.parent;
    };
    ts.forEachChild(sourceFile, visit);
  }

  /** The syntax tree a model is built over; building the model links its nodes to their parents. */
  static parse(fileName: string, text: string): ts.SourceFile {
    return ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, false, scriptKindOf(fileName));
  }

  /** The parser's errors; no program is needed for them. */
  syntaxDiagnostics(): readonly ts.Diagnostic[] {
    return (this.sourceFile as ts.SourceFile & { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  }

  /** The type checker's errors, when the file was parsed in a program; otherwise none. */
  semanticDiagnostics(): readonly TypeDiagnostic[] {
    return this.semanticDiagnosticsOf?.() ?? [];
  }

  /** Every node of a syntax kind, in source order. */
  nodes<T extends ts.Node = ts.Node>(kind: ts.SyntaxKind): readonly T[] {
    return (this.buckets[kind] ?? []) as T[];
  }

  get calls(): readonly ts.CallExpression[] {
    return this.nodes<ts.CallExpression>(ts.SyntaxKind.CallExpression);
  }

  /** 1-based line and column of a node's first character. */
  position(node: ts.Node): Position {
    const { line, character } = this.sourceFile.getLineAndCharacterOfPosition(node.getStart(this.sourceFile));
    return { line: line + 1, column: character + 1 };
  }

  text(node: ts.Node): string {
    return node.getText(this.sourceFile);
  }

  lineText(line: number): string {
    return this.sourceFile.text.split(/\r?\n/)[line - 1] ?? '';
  }

  /** A fact about a node computed once per model: rules that ask the same question of every call share the answer. */
  memo<T>(key: MemoKey<T>, node: ts.Node, compute: () => T): T {
    let answers = this.memos.get(key);
    if (!answers) {
      answers = new Map();
      this.memos.set(key, answers);
    }
    const known = answers.get(node);
    // An answer may be undefined itself: only then is the second lookup needed.
    if (known !== undefined || answers.has(node)) return known as T;
    const answer = compute();
    answers.set(node, answer);
    return answer;
  }

  // --- names and scopes --------------------------------------------------------------------------

  /** The declaration an identifier refers to (variable, parameter, binding element, import, function). */
  declarationOf(identifier: ts.Identifier): ts.Node | undefined {
    return this.memo(DECLARATION_OF, identifier, () => {
      const name = identifier.text;
      for (let node: ts.Node | undefined = identifier.parent; node; node = node.parent) {
        if (!isScopeContainer(node)) continue;
        const found = this.scopeOf(node).get(name);
        if (found) return found;
      }
      return undefined;
    });
  }

  /** Every identifier that refers to the given declaration, the declaring name excluded. */
  referencesTo(declaration: ts.Node): ts.Identifier[] {
    const name = declarationName(declaration);
    if (!name) return [];
    return this.nodes<ts.Identifier>(ts.SyntaxKind.Identifier).filter(
      (id) => id.text === name && !isDeclaringName(id) && !isBindingPropertyName(id) && this.declarationOf(id) === declaration,
    );
  }

  private scopeOf(container: ts.Node): Scope {
    let scope = this.scopes.get(container);
    if (!scope) {
      scope = collectDeclarations(container);
      this.scopes.set(container, scope);
    }
    return scope;
  }
}
