/** Where a spec passes Playwright a selector string, for the rules that judge selectors. */
import type { ts } from '../../util/typescript.js';
import type { SpecModel } from '../../analysis/model.ts';
import { ELEMENT_HANDLE_FACTORIES, type ValueKind } from '../../analysis/playwright-api.ts';

/** Stands for the unknown part of a template (`.css-${hash}`): letters and digits, like the values it hides. */
export const UNKNOWN_PART = 'x0x0x0';

export interface SelectorUse {
  call: ts.CallExpression;
  method: string;
  argument: ts.Expression;
  /** The selector, with unknown template parts replaced by UNKNOWN_PART. */
  value: string;
}

/**
 * Page and Frame's selector-first actions and queries (older API, still supported). A locator has
 * methods of the same names whose first argument is not a selector (`click(options)`).
 */
const PAGE_SELECTOR_METHODS = new Set([
  'click', 'dblclick', 'fill', 'type', 'press', 'check', 'uncheck', 'setChecked', 'selectOption', 'hover', 'focus',
  'tap', 'setInputFiles', 'textContent', 'innerText', 'innerHTML', 'inputValue', 'getAttribute', 'isVisible',
  'isHidden', 'isChecked', 'isEnabled', 'isDisabled', 'isEditable', 'dispatchEvent',
]);
/** Methods whose first argument is a selector string, on a page, frame or locator. */
const SELECTOR_METHODS = new Set(['locator', 'frameLocator', '$eval', '$$eval', ...ELEMENT_HANDLE_FACTORIES, ...PAGE_SELECTOR_METHODS]);
const SELECTOR_RECEIVERS: ReadonlySet<ValueKind> = new Set(['page', 'frame', 'locator', 'elementHandle', 'unknown']);

/** Every selector string passed to Playwright in the file, followed through variables and templates. */
export function selectorUses(model: SpecModel): SelectorUse[] {
  const uses: SelectorUse[] = [];
  for (const call of model.calls) {
    const { name, receiver } = model.callee(call);
    const argument = call.arguments[0];
    if (!name || !receiver || !argument || !SELECTOR_METHODS.has(name)) continue;
    const kind = model.kindOf(receiver);
    if (!SELECTOR_RECEIVERS.has(kind)) continue;
    if (PAGE_SELECTOR_METHODS.has(name) && kind !== 'page' && kind !== 'frame') continue;
    const value = model.stringValue(argument, UNKNOWN_PART);
    if (value !== undefined) uses.push({ call, method: name, argument, value });
  }
  return uses;
}
