/**
 * The pages a batch's generations have explored, kept across them: a batch's scenarios start on pages of
 * one site, and exploring it again for each (a browser launched, every page loaded and left to settle) was
 * a third of a scenario's time. A scenario whose start page an earlier exploration reached is grounded in
 * that exploration, its own page first; one that none reached explores the site as a single generation does.
 * The batch owns one and hands it to every generation, in its thread or, through messages, in the workers'
 * (threads.ts): two that ask at once while nothing of the site is explored get one exploration, the second
 * waiting for it.
 */
import type { PageInventory } from '../contracts.ts';
import { capSite } from '../explore/render.ts';
import { pathKey } from '../explore/site.ts';
import type { SignedInExploration } from './explore-signed-in.ts';
import { abortable } from '../util/abortable.ts';

export type SiteBudget = Parameters<typeof capSite>[1];

/** A generation's exploration: reused (an earlier or concurrent one reached its page), or made by `explore`. */
export interface SharedExploration {
  exploration: SignedInExploration;
  reused: boolean;
}

/** What a generation asks of the explorations it may share (PipelineOptions.explored). */
export interface Explorations {
  /**
   * The exploration for `url`: one that reached it, after waiting for those of its origin under way; else
   * `explore()`'s, kept for the others. A failed `explore()` is the caller's failure alone: a generation
   * waiting on it then explores for itself.
   */
  exploration(url: string, budget: SiteBudget, explore: () => Promise<SignedInExploration>, signal?: AbortSignal): Promise<SharedExploration>;
}

export class ExploredPages implements Explorations {
  readonly #explorations: SignedInExploration[] = [];
  /** Explorations under way, by the origin of their start URL. */
  readonly #underWay = new Map<Promise<unknown>, string>();

  async exploration(url: string, budget: SiteBudget, explore: () => Promise<SignedInExploration>, signal?: AbortSignal): Promise<SharedExploration> {
    const origin = originOf(url);
    for (;;) {
      const found = this.from(url, budget);
      if (found) return { exploration: found, reused: true };
      const sameOrigin = [...this.#underWay].filter(([, of]) => of === origin).map(([exploring]) => exploring);
      if (sameOrigin.length === 0) break;
      await abortable(Promise.allSettled(sameOrigin), signal);
    }
    const exploring = explore();
    this.#underWay.set(exploring, origin);
    try {
      const exploration = await exploring;
      this.add(exploration);
      return { exploration, reused: false };
    } finally {
      this.#underWay.delete(exploring);
    }
  }

  /**
   * An earlier exploration that reached `url`, as if it had started there; undefined when none did. One
   * made through the login form, or that stayed on a sign-in page, is not reused: there the start page
   * is where the spec signs in, whichever page it asked for.
   */
  from(url: string, budget: SiteBudget): SignedInExploration | undefined {
    for (const exploration of this.#explorations) {
      const inventory = startingAt(exploration.inventory, url, budget);
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

function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : url;
}

/** The site with `url`'s page as its start page and the other pages after it, fitted to the budget again; undefined when `url`'s page is not among them. */
export function startingAt(site: PageInventory, url: string, budget: SiteBudget): PageInventory | undefined {
  if (!URL.canParse(url) || !URL.canParse(site.url) || new URL(url).origin !== new URL(site.url).origin) return undefined;
  const { pages = [], unexplored, promptPages: _promptPages, ...first } = site;
  const all: PageInventory[] = [first, ...pages];
  const start = all.find((page) => pathKey(page.url) === pathKey(url));
  if (!start) return undefined;
  return capSite({ ...start, pages: all.filter((page) => page !== start), ...(unexplored ? { unexplored } : {}) }, budget);
}
