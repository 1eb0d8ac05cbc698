/**
 * The options of the allow-list gate's two rules (agents/critic.yaml): allowed-code's lists of what generated code
 * may use, and allowed-paths' methods and option keys that name files or URLs.
 */
import { z } from 'zod';
import { ruleOptions } from '../../util/zod-helpers.ts';

/** allowed-code: what a spec may import, ask for and reach. */
export const AllowedCodeOptions = ruleOptions({
  /** Packages a spec may import from, each with the names it may use as values (types are always fine). */
  imports: z.record(z.string().min(1), z.array(z.string().min(1))),
  /** Whether the project's own modules (a fixtures file, page objects) may be imported: resolved inside the project, never into node_modules. */
  relative_imports: z.boolean(),
  /** Playwright fixtures a test may ask for (`{ page, request }`); fixtures the spec or its fixtures module defines are fine too. */
  fixtures: z.array(z.string().min(1)),
  /** The environment variables a spec may read besides the declared credentials, always as `process.env.NAME`. */
  env: z.array(z.string().min(1)),
  /** Globals a spec may use, each with the members it may reach on it (`Math: [floor, random]`). */
  globals: z.record(z.string().min(1), z.array(z.string().min(1))),
  /** Member names a spec may use on Playwright's objects and on ordinary values (strings, arrays, promises, dates). */
  members: z.array(z.string().min(1)),
  /** Options `test.use({...})` may set; the browser's executable and arguments are not among them. */
  use_options: z.array(z.string().min(1)),
  /** Methods that make a browser context or page (`browser.newContext({...})`): their options come from use_options and these. */
  context_methods: z.array(z.string().min(1)),
  /** Options a new context may set besides use_options (its recordings, whose paths allowed-paths checks). */
  context_options: z.array(z.string().min(1)),
  /** Methods whose function argument runs in the browser page, not in Node (`page.evaluate(() => document.title)`). */
  page_functions: z.array(z.string().min(1)),
});
export type AllowedCodeOptions = z.infer<typeof AllowedCodeOptions>;

/** allowed-paths: which methods and option keys name files or URLs, and which URL schemes a spec may open. */
export const AllowedPathsOptions = ruleOptions({
  /** Option keys that name a file or folder (`{ path }`, `recordVideo: { dir }`, `storageState`). */
  path_properties: z.array(z.string().min(1)),
  /** Methods whose arguments are file paths (`download.saveAs(path)`, `setInputFiles(files)`, `toHaveScreenshot(name)`). */
  path_arguments: z.array(z.string().min(1)),
  /** Of path_arguments, the methods that upload what they read, handing the page its names (`setInputFiles`). */
  upload_arguments: z.array(z.string().min(1)),
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
export type AllowedPathsOptions = z.infer<typeof AllowedPathsOptions>;
