/**
 * A group of alike configs is checked as one program (groupByProjectTypes) with their declaration files,
 * not with the globals their other sources declare (reading those means reading every file a config
 * includes, thousands in a monorepo). Both can make the program differ from the one the user's editor has
 * for a spec: an app's `declare global { interface Window { invokeOrders: string[] } }` in its src/main.tsx
 * is missing, and a neighbour config's declarations are present (a Cloudflare worker's global types
 * redefine the DOM's `Element`, and another app's `document.body.append(div)` no longer type-checks).
 * Either shows as a type error, so a spec with one is checked again in a program of its own config, its
 * sources' globals included, and that result is the one reported. Type errors are few, so the sources of a
 * config are read, and a program made, only for a config whose specs have one.
 */
import typeCheckRule from '../rules/type-check.ts';
import { projectGlobals } from './project-globals.ts';
import type { ProjectGroup, ProjectTypes, Spec } from './project-types.ts';
import type { FileValidation, Validator } from './validator.ts';

export function confirmedInOwnProject(
  results: readonly FileValidation[],
  members: ProjectGroup<Spec>['members'],
  validatorFor: (project: ProjectTypes) => Validator,
): FileValidation[] {
  const withTypeError = filesWithTypeError(results);
  const confirmed = new Map<string, FileValidation>();
  for (const member of members) {
    const again = member.specs.filter((spec) => withTypeError.has(spec.file));
    if (again.length === 0) continue;
    const globals = projectGlobals(member.sources);
    // A config alone in its group, declaring no globals in its sources, was checked in its own program already.
    if (members.length === 1 && globals.length === 0) continue;
    for (const result of validatorFor({ ...member.project, globals }).validateMany(again)) confirmed.set(result.file, result);
  }
  return results.map((r) => confirmed.get(r.file) ?? r);
}

/**
 * The project files each spec's type check read besides its imports, for the validate cache: its config, the
 * declaration files of its program (its config's and those the group's program took from its neighbours), and,
 * for a spec checked again in its own config (a type error in the group's program), every source of the config
 * that may declare globals, whether it declares any yet. `results` are the group program's.
 */
export function typeCheckReads(group: Pick<ProjectGroup<Spec>, 'project' | 'members'>, results: readonly FileValidation[]): Map<string, string[]> {
  const withTypeError = filesWithTypeError(results);
  const reads = new Map<string, string[]>();
  for (const member of group.members) {
    const always = [...(member.project.configFile ? [member.project.configFile] : []), ...new Set([...member.project.declarationFiles, ...group.project.declarationFiles])];
    for (const spec of member.specs) reads.set(spec.file, withTypeError.has(spec.file) ? [...always, ...member.sources] : always);
  }
  return reads;
}

function filesWithTypeError(results: readonly FileValidation[]): Set<string> {
  return new Set(results.filter((r) => r.issues.some((i) => i.rule === typeCheckRule.id && i.severity === 'error')).map((r) => r.file));
}
