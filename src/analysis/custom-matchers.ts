/** The spec's own matchers: the keys of every `expect.extend({...})` object of the file. */
import type { SpecModel } from './model.ts';

export function customMatcherNames(model: SpecModel): Set<string> {
  const names = new Set<string>();
  for (const call of model.calls) {
    if (model.playwrightPath(call.expression) !== 'expect.extend') continue;
    const object = call.arguments[0] && model.objectLiteral(call.arguments[0]);
    for (const property of object?.properties ?? []) {
      const name = model.propertyName(property);
      if (name !== undefined && !name.startsWith('_')) names.add(name);
    }
  }
  return names;
}
