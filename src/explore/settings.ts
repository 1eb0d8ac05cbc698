/**
 * How a live page is explored and how large its inventory may grow in a prompt: the `explore:` section
 * of agents/scribe.yaml. The explorer owns its settings' schema, as a rule owns its options; the config
 * reads the YAML against it (config/explore.ts, config/scribe.ts).
 */
import { z } from 'zod';

const positiveInt = z.number().int().positive();

export const ExploreSettings = z.strictObject({
  /** The whole rendered inventory must fit this many estimated tokens. */
  max_tokens: positiveInt,
  /** Token estimate: characters of the rendering divided by this. */
  chars_per_token: z.number().positive(),
  /** The longest visible text or label kept for one element. */
  max_text_chars: positiveInt,
  /** Entries of one kind read from the page at most, so a huge page cannot flood the process. */
  max_scanned_per_kind: positiveInt,
  navigation_timeout_ms: positiveInt,
  /** Same-origin pages explored from the start URL, the start page included. 1 explores the start page alone. */
  max_pages: positiveInt.default(8),
  /** Link hops from the start page at most. */
  max_depth: z.number().int().nonnegative().default(2),
  /** The whole site exploration stops starting new pages after this long. */
  max_time_ms: positiveInt.default(20000),
  /**
   * Client-rendered pages: before the inventory is read, wait until the page shows something to act on, fetches
   * nothing and its DOM has been still for render_quiet_ms, at most render_wait_ms after load.
   */
  render_wait_ms: z.number().int().nonnegative().default(3000),
  render_quiet_ms: z.number().int().nonnegative().default(100),
  /** A Playwright storage state file (signed-in cookies and storage) to explore with; relative to the working directory. */
  storage_state: z.string().min(1).optional(),
});
export type ExploreSettings = z.infer<typeof ExploreSettings>;
