/** allowed-paths' file policy: every file a spec names (screenshots, storage state, uploads, downloads, attachments) stays in the test's output folder. */
import { posix } from 'node:path';
import { ts } from '../../util/typescript.js';
import type { SpecModel } from '../../analysis/model.ts';
import { isTestInfo } from '../../analysis/value-origins.ts';
import { constInitializer, constStrings, shortText } from './constant-strings.ts';
import { UrlCheck } from './urls.ts';
import { MAX_DEPTH } from '../../analysis/depth.ts';

/** Attachment names Scribe and Playwright give their own evidence. */
const RESERVED_ATTACHMENT = /^(scribe|error-context|trace|video|screenshot|_)/i;
const PATH_ADVICE = "use a relative path without '..' (such as 'screenshots/home.png') or testInfo.outputPath('home.png')";

/** The files and URLs a spec names: the URL policy (urls.ts) and the file policy on top of it. */
export class PathCheck extends UrlCheck {
  /** Every expression checked as a file's path: where output-path.ts lets testInfo.outputPath() go. */
  readonly pathPositions = new Set<ts.Node>();

  /**
   * A positional argument of a path-taking method: a path, a list of them, or a file payload object. An upload
   * (`upload`: setInputFiles) hands the page the names of what it reads, a folder's included.
   */
  argument(argument: ts.Expression, where: string, upload = false): void {
    const e = this.model.unwrap(argument);
    if (ts.isArrayLiteralExpression(e)) {
      for (const item of e.elements) this.argument(item, where, upload);
      return;
    }
    if (ts.isObjectLiteralExpression(e)) {
      this.optionsObject(e, where);
      return;
    }
    if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return;
    this.pathPositions.add(argument);
    const problem = this.pathProblem(e, upload);
    if (problem) this.findings.push({ node: argument, message: `${where}: ${problem}` });
  }

  /**
   * testInfo.attach(name, …): a name of the spec's own, written out. Scribe reads its evidence from
   * attachments it names (scribe-*) and the Medic Playwright's page snapshot (error-context); a spec that
   * attached under those names would forge what the Medic and the host are told.
   */
  attachmentName(argument: ts.Expression): void {
    const name = this.model.constantString(argument);
    if (name === undefined) {
      this.findings.push({ node: argument, message: "attach(): write the attachment's name out as text (such as 'cart-summary'), so it cannot take a name Scribe or Playwright reads as their own." });
    } else if (RESERVED_ATTACHMENT.test(name.trim())) {
      this.findings.push({ node: argument, message: `attach(): "${shortText(name)}" is a name Scribe or Playwright reads as their own evidence (scribe-*, error-context, trace, video, screenshot); give the attachment a name of your own, such as 'cart-summary'.` });
    }
  }

  /** The options object of screenshot(), storageState(), newContext(), attach(), test.use(): written out, its file keys checked. */
  optionsArgument(call: ts.CallExpression, index: number, name: string): void {
    const argument = call.arguments[index];
    if (!argument) return;
    const object = this.constObject(argument);
    if (!object) {
      if (!this.isPlainValue(argument)) {
        this.findings.push({ node: argument, message: `${name}(): write its options as an object literal in the call (or a constant holding one), so the files it names can be checked.` });
      }
      return;
    }
    this.optionsObject(object, `${name}()`);
  }

  private isPlainValue(expr: ts.Expression): boolean {
    const e = this.model.unwrap(expr);
    return ts.isStringLiteralLike(e) || ts.isNumericLiteral(e) || ts.isTemplateExpression(e) || ts.isArrowFunction(e) || ts.isFunctionExpression(e);
  }

  private optionsObject(object: ts.ObjectLiteralExpression, where: string, depth = 0): void {
    if (depth > MAX_DEPTH) return;
    for (const property of object.properties) {
      if (ts.isSpreadAssignment(property)) {
        const inner = this.constObject(property.expression);
        if (inner) this.optionsObject(inner, where, depth + 1);
        else if (!this.isDevices(property.expression)) this.findings.push({ node: property, message: `${where}: a spread of options the analysis cannot see may name any file; write the options out.` });
        continue;
      }
      const name = this.model.propertyName(property);
      const value = ts.isPropertyAssignment(property) ? property.initializer : ts.isShorthandPropertyAssignment(property) ? property.name : undefined;
      if (name === undefined || value === undefined) {
        this.findings.push({ node: property, message: `${where}: options may only be plain \`key: value\` pairs with literal keys (no getters, methods or keys computed at run time), so the files they name can be checked.` });
        continue;
      }
      const inner = this.constObject(value);
      if (inner) {
        // Files and URLs sit only in the containers (recordHar: { path }); headers, JSON bodies and viewports hold none.
        if (this.options.option_containers.includes(name)) this.optionsObject(inner, where, depth + 1);
        continue;
      }
      const list = this.model.unwrap(value);
      if (ts.isArrayLiteralExpression(list)) {
        for (const item of list.elements) {
          const element = this.constObject(item);
          if (element) this.optionsObject(element, where, depth + 1);
          else if (this.options.option_containers.includes(name)) this.findings.push({ node: item, message: `${where} option \`${name}\`: write each entry out as an object literal, so the files and URLs it names can be checked.` });
        }
        continue;
      }
      if (this.options.option_containers.includes(name)) {
        this.findings.push({ node: property, message: `${where} option \`${name}\`: write it out as an object literal (or a constant holding one), so the files and URLs it names can be checked.` });
        continue;
      }
      if (this.options.url_properties.includes(name)) {
        const problem = this.urlProblem(value);
        if (problem) this.findings.push({ node: property, message: `${where} option \`${name}\`: ${problem} Reach the app with a path under baseURL, such as '/api/items'.` });
        continue;
      }
      if (!this.options.path_properties.includes(name)) continue;
      this.pathPositions.add(value);
      const problem = this.pathProblem(value);
      if (problem) this.findings.push({ node: property, message: `${where} option \`${name}\`: ${problem}` });
    }
  }

  /** `devices['Pixel 7']`: Playwright's device descriptors, data without files. */
  private isDevices(expr: ts.Expression): boolean {
    const e = this.model.unwrap(expr);
    if (!ts.isElementAccessExpression(e) || !ts.isIdentifier(e.expression)) return false;
    const binding = this.model.moduleBinding(e.expression);
    return binding?.module === '@playwright/test' && binding.imported === 'devices';
  }

  /** Why a value is not a path inside the output folder, or undefined when it is. */
  private pathProblem(expr: ts.Expression, upload = false, depth = 0): string | undefined {
    if (depth > MAX_DEPTH) return `this path cannot be followed; ${PATH_ADVICE}.`;
    const e = this.model.unwrap(expr);
    if (ts.isConditionalExpression(e)) return this.pathProblem(e.whenTrue, upload, depth + 1) ?? this.pathProblem(e.whenFalse, upload, depth + 1);
    if (ts.isCallExpression(e)) {
      const callee = this.model.unwrap(e.expression);
      // Playwright's own outputPath refuses any path outside the test's output folder, whatever its segments.
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'outputPath' && isTestInfo(this.model, callee.expression)) return outputFolderProblem(this.model, e, upload);
    }
    if (ts.isIdentifier(e)) {
      const value = constInitializer(this.model, e);
      if (value && !ts.isStringLiteralLike(value)) return this.pathProblem(value, upload, depth + 1);
    }
    const texts = constStrings(this.model, e);
    if (texts === undefined) return `the path is computed at run time and could point anywhere on the host; ${PATH_ADVICE}.`;
    for (const text of texts) {
      const problem = literalPathProblem(text);
      if (problem) return problem;
    }
    return undefined;
  }
}

/**
 * `testInfo.outputPath()` of the output folder itself: the folder's name differs in the proof's copy, and an
 * upload of it hands that name to the page. So its segments must name something inside it; an upload's must
 * be written out, since a name read at run time (`await page.title()`) could be '.'.
 */
function outputFolderProblem(this: void, model: SpecModel, call: ts.CallExpression, upload: boolean): string | undefined {
  const folder = "testInfo.outputPath() names the test's output folder itself, whose name differs in the proof's copy of the spec; name a file in it, such as testInfo.outputPath('home.png').";
  if (call.arguments.length === 0) return folder;
  const segments = call.arguments.map((argument) => constStrings(model, argument));
  if (segments.some((texts) => texts === undefined)) {
    return upload ? "an upload's testInfo.outputPath(...) must name its file as text (such as testInfo.outputPath('avatar.png')): a name computed at run time could be the output folder itself, whose name differs in the proof's copy of the spec." : undefined;
  }
  const paths = (segments as string[][]).reduce<string[]>((joined, texts) => joined.flatMap((before) => texts.map((text) => `${before}/${text}`)), ['']);
  return paths.some((joined) => posix.normalize(`.${joined}`) === '.' || posix.normalize(`.${joined}`) === './') ? folder : undefined;
}

function literalPathProblem(text: string): string | undefined {
  if (text === '' || /^([\\/]|[a-zA-Z]:|~)/.test(text)) return `"${text}" is an absolute path, outside the test's output folder; ${PATH_ADVICE}.`;
  if (text.split(/[\\/]/).includes('..')) return `"${text}" climbs out of the test's output folder with '..'; ${PATH_ADVICE}.`;
  if (text.includes('\0')) return `"${text}" holds a NUL character; ${PATH_ADVICE}.`;
  return undefined;
}
