/**
 * Run-time grounding, read in the page: its test ids and named elements (role "name"), deduplicated and
 * capped. It runs in the browser (Playwright sends its source), so it uses nothing from outside itself.
 */
export interface PageElements {
  url: string;
  testIds: string[];
  roles: string[];
}

export function readPageElements(attribute: string): PageElements {
  const TAG_ROLES: Record<string, string> = { A: 'link', BUTTON: 'button', SELECT: 'combobox', TEXTAREA: 'textbox', H1: 'heading', H2: 'heading', H3: 'heading' };
  const INPUT_ROLES: Record<string, string> = { checkbox: 'checkbox', radio: 'radio', submit: 'button', button: 'button' };
  const name = (el: Element) => {
    const html = el as HTMLInputElement;
    return (el.getAttribute('aria-label') || (html.labels && html.labels[0] ? html.labels[0].textContent : '') || html.innerText || el.getAttribute('placeholder') || '').replace(/\s+/g, ' ').trim().slice(0, 60);
  };
  const roleOf = (el: Element) => el.getAttribute('role') || TAG_ROLES[el.tagName] || (el.tagName === 'INPUT' ? INPUT_ROLES[(el as HTMLInputElement).type] || 'textbox' : '');
  const testIds = [...new Set([...document.querySelectorAll('[' + CSS.escape(attribute) + ']')].map((el) => el.getAttribute(attribute) || ''))].slice(0, 300);
  const roles = [...new Set([...document.querySelectorAll('a[href], button, input, select, textarea, h1, h2, h3, [role]')].map((el) => roleOf(el) + ' ' + JSON.stringify(name(el))))].slice(0, 200);
  return { url: location.href, testIds, roles };
}
