/**
 * The allow-list gate's file and URL check for model-written code: every file a spec names (screenshots,
 * storage state, uploads, downloads, attachments) stays inside the test's own output folder, and every
 * page it opens is the app's (http, https or a path under baseURL), never file:, data: or chrome:; and
 * `testInfo.outputPath()` is only ever such a file's path (gate/output-path.ts).
 */
import { ts } from '../util/typescript.js';
import type { SpecModel } from '../analysis/model.ts';
import { defineRule, type Finding } from './types.ts';
import { AllowedPathsOptions } from './gate/options.ts';
import { PathCheck } from './gate/file-paths.ts';
import { outputPathReads } from './gate/output-path.ts';

export default defineRule({
  id: 'allowed-paths',
  description: "Model-written code may name files only inside the test's output folder and open or request only the app.",
  fixable: false,
  untrustedOnly: true,
  options: AllowedPathsOptions,
  check(model, options) {
    const findings: Finding[] = [];
    const paths = new PathCheck(model, options, findings);
    for (const tagged of model.nodes<ts.TaggedTemplateExpression>(ts.SyntaxKind.TaggedTemplateExpression)) {
      const name = calledName(model, tagged.tag);
      if (name !== undefined && checkedMethod(options, name)) {
        findings.push({ node: tagged, message: `${name}\`…\`: a tagged template hands the method its text in pieces the check cannot see; call it with parentheses: ${name}('/path').` });
      }
    }
    for (const call of model.calls) {
      const callee = calledMember(model, call.expression);
      const name = callee ? model.memberName(callee) : model.playwrightPath(call.expression) === 'test.use' ? 'use' : undefined;
      if (name === undefined) continue;
      if (name === 'attach' && call.arguments[0]) paths.attachmentName(call.arguments[0]);
      if (options.path_arguments.includes(name)) call.arguments.forEach((argument) => paths.argument(argument, `${name}()`, options.upload_arguments.includes(name)));
      if (Object.hasOwn(options.option_arguments, name) || name === 'use') paths.optionsArgument(call, name === 'use' ? 0 : options.option_arguments[name]!, name);
      if (options.navigation_methods.includes(name) && call.arguments[0]) paths.url(call.arguments[0], name);
      if (options.request_methods.includes(name) && call.arguments[0] && paths.mayBeRequest(callee)) paths.url(call.arguments[0], name);
    }
    findings.push(...outputPathReads(model, paths.pathPositions));
    return findings;
  },
});

/** The member a call calls, seen through parentheses, casts and `(0, page.goto)(…)`. */
function calledMember(model: SpecModel, expr: ts.Expression): ts.PropertyAccessExpression | ts.ElementAccessExpression | undefined {
  let e = model.unwrap(expr);
  while (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.CommaToken) e = model.unwrap(e.right);
  return ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) ? e : undefined;
}

function calledName(model: SpecModel, expr: ts.Expression): string | undefined {
  const member = calledMember(model, expr);
  return member ? model.memberName(member) : undefined;
}

/** Whether allowed-paths checks a method's arguments. */
function checkedMethod(options: AllowedPathsOptions, name: string): boolean {
  return options.path_arguments.includes(name) || Object.hasOwn(options.option_arguments, name) || options.navigation_methods.includes(name) || options.request_methods.includes(name);
}
