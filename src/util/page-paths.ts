/**
 * A request names the page it opens by its path ("open /search and see the heading"): that is where the
 * spec starts, not an action to do or a field to fill, so readers of a request's actions drop it.
 */
export function withoutPagePaths(text: string): string {
  return text.replace(/(?<=^|\s)\/\S*/g, ' ');
}
