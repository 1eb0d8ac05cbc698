/**
 * The pages a worker's generations have explored, kept across them: a batch's scenarios start on pages of
 * one site, and exploring it again for each (a browser launched, every page loaded and left to settle) was
 * a third of a scenario's time. A scenario whose start page an earlier exploration reached is grounded in
 * that exploration, its own page first; one that none reached explores the site as a single generation does.
 */
import type { PageInventory } from '../contracts.ts';
import { capSite } from '../explore/render.ts';
import { pathKey } from '../explore/site.ts';
import type { SignedInExploration } from './explore-signed-in.ts';

export class ExploredPages {
  readonly #explorations: SignedInExploration[] = [];

  /**
   * An earlier exploration that reached `url`, as if it had started there; undefined when none did. One
   * made through the login form, or that stayed on a sign-in page, is not reused: there the start page
   * is where the spec signs in, whichever page it asked for.
   */
  from(url: string, settings: SiteBudget): SignedInExploration | undefined {
    for (const exploration of this.#explorations) {
      const inventory = startingAt(exploration.inventory, url, settings);
      if (inventory) return { inventory, ...(exploration.signIn ? { signIn: exploration.signIn } : {}) };
    }
    return undefined;
  }

  add(exploration: SignedInExploration): void {
    const { signIn } = exploration;
    if (signIn && (signIn.method === 'login_form' || !signIn.explored_behind_login)) return;
    this.#explorations.push(exploration);
  }
}

type SiteBudget = Parameters<typeof capSite>[1];

/** The site with `url`'s page as its start page and the other pages after it, fitted to the budget again; undefined when `url`'s page is not among them. */
export function startingAt(site: PageInventory, url: string, settings: SiteBudget): PageInventory | undefined {
  if (!URL.canParse(url) || !URL.canParse(site.url) || new URL(url).origin !== new URL(site.url).origin) return undefined;
  const { pages = [], unexplored, promptPages: _promptPages, ...first } = site;
  const all: PageInventory[] = [first, ...pages];
  const start = all.find((page) => pathKey(page.url) === pathKey(url));
  if (!start) return undefined;
  return capSite({ ...start, pages: all.filter((page) => page !== start), ...(unexplored ? { unexplored } : {}) }, settings);
}
