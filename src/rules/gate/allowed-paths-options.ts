/** The options of allowed-paths (agents/critic.yaml): which methods and option keys name files or URLs. */
import { z } from 'zod';
import { ruleOptions } from '../../util/zod-helpers.ts';

export const Options = ruleOptions({
  /** Option keys that name a file or folder (`{ path }`, `recordVideo: { dir }`, `storageState`). */
  path_properties: z.array(z.string().min(1)),
  /** Methods whose arguments are file paths (`download.saveAs(path)`, `setInputFiles(files)`, `toHaveScreenshot(name)`). */
  path_arguments: z.array(z.string().min(1)),
  /** Methods taking an options object (at the given argument index) that may name files: it must be written out, so it can be checked. */
  option_arguments: z.record(z.string().min(1), z.number().int().nonnegative()),
  /** Methods that open a URL in the browser. */
  navigation_methods: z.array(z.string().min(1)),
  /** Methods of Playwright's API requests (request, page.request, route) whose first argument is a URL. */
  request_methods: z.array(z.string().min(1)),
  /** Option keys whose value holds further file or URL options (`recordHar: { path }`): it must be written out too. */
  option_containers: z.array(z.string().min(1)),
  /** Option keys that hold a URL (`route.fetch({ url })`). */
  url_properties: z.array(z.string().min(1)),
  /** Schemes of absolute URLs a spec may open or request; a path under baseURL is always fine. Empty: the app only. */
  url_schemes: z.array(z.string().regex(/^[a-z][a-z0-9+.-]*:$/, 'a scheme such as https:')),
});
export type Options = z.infer<typeof Options>;
