/**
 * The one request every stage is handed: what the spec is to test and where it goes, with every default
 * settled once (src/workflow/request.ts settles it) and passed whole from stage to stage.
 */
import type { Complexity } from '../contracts.ts';

export interface ResolvedRequest {
  /** What the test should do, in the requester's words. */
  description: string;
  /** The feature it belongs to (the folder under the output folder, unless the request named a path). */
  feature: string;
  /** Picks the model tier (agents/scribe.yaml). */
  complexity: Complexity;
  /** Where the accepted spec goes: an absolute path. */
  file: string;
  /** The app under test, when known: the request's URL, else BASE_URL or the Playwright config's baseURL. */
  url?: string;
}
