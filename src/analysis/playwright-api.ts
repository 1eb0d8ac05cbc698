/**
 * Facts about Playwright's API that the analysis needs: which calls return which objects, which
 * methods return promises, which matchers are async. These are facts about Playwright, not criteria,
 * so they live here rather than in critic.yaml.
 */

export type ValueKind =
  | 'page'
  | 'locator'
  | 'frame'
  | 'context'
  | 'browser'
  | 'request'
  | 'keyboard'
  | 'mouse'
  | 'elementHandle'
  | 'unknown';

/** The modules a spec imports Playwright Test from. */
export const PLAYWRIGHT_MODULES = ['@playwright/test', 'playwright/test'];

const FIXTURES: Record<string, ValueKind> = {
  page: 'page',
  context: 'context',
  browser: 'browser',
  request: 'request',
};

/** The kind of a fixture or a well-known property by its name (`{ page }`, `this.page`). */
export function fixtureKind(name: string): ValueKind | undefined {
  return Object.hasOwn(FIXTURES, name) ? FIXTURES[name] : undefined;
}

const TYPE_NAMES: Record<string, ValueKind> = {
  Page: 'page',
  Locator: 'locator',
  FrameLocator: 'locator',
  Frame: 'frame',
  BrowserContext: 'context',
  Browser: 'browser',
  APIRequestContext: 'request',
  ElementHandle: 'elementHandle',
  Keyboard: 'keyboard',
  Mouse: 'mouse',
};

export function kindFromTypeName(name: string): ValueKind | undefined {
  return Object.hasOwn(TYPE_NAMES, name) ? TYPE_NAMES[name] : undefined;
}

/** Methods that make a Locator, on a page, a frame or another locator. */
export const LOCATOR_FACTORIES = new Set([
  'locator',
  'getByTestId',
  'getByRole',
  'getByText',
  'getByLabel',
  'getByPlaceholder',
  'getByAltText',
  'getByTitle',
  'frameLocator',
  'contentFrame',
  'owner',
  'first',
  'last',
  'nth',
  'filter',
  'and',
  'or',
  'describe',
]);

const PAGE_LIKE: ReadonlySet<ValueKind> = new Set(['page', 'frame', 'locator']);

/**
 * What calling (or, with `isProperty`, reading) `name` on a value of `receiver` kind gives.
 * Locator factories are distinctive enough to count on an unknown receiver (`this.root.getByTestId`).
 */
export function kindOfCall(name: string, receiver: ValueKind, firstArgument: string | undefined, isProperty = false): ValueKind {
  if (isProperty) {
    if (receiver === 'page' && (name === 'keyboard' || name === 'mouse')) return name;
    if (receiver === 'page' && name === 'request') return 'request';
    if (receiver === 'context' && name === 'request') return 'request';
    return 'unknown';
  }
  if (LOCATOR_FACTORIES.has(name) && (PAGE_LIKE.has(receiver) || receiver === 'unknown') && name !== 'describe') return 'locator';
  if (name === 'describe' && receiver === 'locator') return 'locator';
  if (name === 'newPage' || name === 'opener') return 'page';
  if (name === 'waitForEvent' && (firstArgument === 'popup' || firstArgument === 'page')) return 'page';
  if (name === 'page' && (receiver === 'frame' || receiver === 'locator' || receiver === 'elementHandle')) return 'page';
  if (name === 'context' && receiver === 'page') return 'context';
  if (name === 'newContext' || name === 'launchPersistentContext') return 'context';
  if ((name === 'mainFrame' || name === 'frame' || name === 'parentFrame') && (receiver === 'page' || receiver === 'frame')) return 'frame';
  if (ELEMENT_HANDLE_FACTORIES.has(name) && (PAGE_LIKE.has(receiver) || receiver === 'elementHandle')) return 'elementHandle';
  return 'unknown';
}

export const ELEMENT_HANDLE_FACTORIES = new Set(['$', '$$', 'elementHandle', 'elementHandles', 'waitForSelector', 'querySelector', 'querySelectorAll']);

/** Methods of Page, Frame, Locator, BrowserContext, Keyboard and Mouse that return promises. */
export const ASYNC_METHODS = new Set([
  // actions
  'click', 'dblclick', 'fill', 'type', 'press', 'pressSequentially', 'check', 'uncheck', 'setChecked',
  'selectOption', 'hover', 'focus', 'blur', 'tap', 'dragTo', 'dragAndDrop', 'setInputFiles', 'selectText',
  'dispatchEvent', 'clear', 'highlight', 'scrollIntoViewIfNeeded', 'down', 'up', 'move', 'wheel', 'insertText',
  // navigation and waiting
  'goto', 'goBack', 'goForward', 'reload', 'waitForURL', 'waitForLoadState', 'waitForSelector', 'waitForTimeout',
  'waitForFunction', 'waitForEvent', 'waitForResponse', 'waitForRequest', 'waitForNavigation', 'waitFor',
  // reading
  'textContent', 'innerText', 'innerHTML', 'inputValue', 'getAttribute', 'isVisible', 'isHidden', 'isChecked',
  'isEnabled', 'isDisabled', 'isEditable', 'count', 'all', 'allTextContents', 'allInnerTexts', 'boundingBox',
  'title', 'content', 'ariaSnapshot',
  // page and context
  'screenshot', 'pdf', 'setContent', 'setViewportSize', 'close', 'route', 'unroute', 'routeFromHAR',
  'addInitScript', 'addScriptTag', 'addStyleTag', 'exposeFunction', 'exposeBinding', 'pause', 'bringToFront',
  'emulateMedia', 'setExtraHTTPHeaders', 'addCookies', 'clearCookies', 'cookies', 'storageState', 'grantPermissions',
  'setGeolocation', 'setOffline', 'newPage', 'newContext',
  // evaluation and handles
  'evaluate', 'evaluateAll', 'evaluateHandle', '$', '$$', '$eval', '$$eval', 'elementHandle', 'elementHandles',
  // API requests
  'get', 'post', 'put', 'patch', 'delete', 'head', 'fetch',
]);

/** Matchers that retry until they pass and therefore return promises. */
export const ASYNC_MATCHERS = new Set([
  'toBeAttached', 'toBeChecked', 'toBeDisabled', 'toBeEditable', 'toBeEmpty', 'toBeEnabled', 'toBeFocused',
  'toBeHidden', 'toBeInViewport', 'toBeVisible', 'toContainText', 'toContainClass', 'toHaveAccessibleDescription',
  'toHaveAccessibleErrorMessage', 'toHaveAccessibleName', 'toHaveAttribute', 'toHaveClass', 'toHaveCount',
  'toHaveCSS', 'toHaveId', 'toHaveJSProperty', 'toHaveRole', 'toHaveScreenshot', 'toHaveText', 'toHaveValue',
  'toHaveValues', 'toHaveTitle', 'toHaveURL', 'toBeOK', 'toMatchAriaSnapshot', 'toPass',
]);

/** Actions a user performs, for step counting and duration estimates. */
export const USER_ACTIONS = new Set([
  'click', 'dblclick', 'fill', 'type', 'press', 'pressSequentially', 'check', 'uncheck', 'setChecked',
  'selectOption', 'hover', 'focus', 'blur', 'tap', 'dragTo', 'dragAndDrop', 'setInputFiles', 'selectText',
  'clear', 'dispatchEvent', 'insertText', 'down', 'up', 'move', 'wheel',
]);

export const NAVIGATIONS = new Set(['goto', 'goBack', 'goForward', 'reload']);

/** Actions that type a text: into a field, or at the focus (`keyboard.insertText`). */
export const TEXT_INPUTS: ReadonlySet<string> = new Set(['fill', 'type', 'pressSequentially', 'insertText']);
/** Actions that set a field's value, typed or chosen: what `toHaveValue` then reads back. */
export const VALUE_SETTERS: ReadonlySet<string> = new Set([...TEXT_INPUTS, 'selectOption']);

/** Objects whose promise-returning methods must be awaited. */
export const PLAYWRIGHT_OBJECTS: ReadonlySet<ValueKind> = new Set([
  'page', 'locator', 'frame', 'context', 'browser', 'request', 'keyboard', 'mouse', 'elementHandle',
]);

/** Every fixture and option Playwright itself provides to tests (PlaywrightTestArgs, …TestOptions, …WorkerArgs, …WorkerOptions). */
export const PLAYWRIGHT_BUILTIN_FIXTURES: ReadonlySet<string> = new Set([
  'page', 'context', 'request', 'mount', 'playwright', 'browser',
  'browserName', 'defaultBrowserType', 'headless', 'channel', 'launchOptions', 'connectOptions', 'reuseContext', 'screenshot', 'trace', 'video',
  'acceptDownloads', 'bypassCSP', 'colorScheme', 'contrast', 'clientCertificates', 'deviceScaleFactor', 'extraHTTPHeaders', 'forcedColors',
  'geolocation', 'hasTouch', 'httpCredentials', 'ignoreHTTPSErrors', 'isMobile', 'javaScriptEnabled', 'locale', 'offline', 'permissions',
  'proxy', 'reducedMotion', 'screen', 'storageState', 'timezoneId', 'userAgent', 'viewport', 'baseURL', 'contextOptions', 'actionTimeout',
  'navigationTimeout', 'serviceWorkers', 'testIdAttribute',
]);

/** Methods of Playwright objects that return plain data (JSON, strings, numbers, records): any own key of it may be read. */
export const DATA_METHODS: ReadonlySet<string> = new Set([
  'json', 'postDataJSON', 'headers', 'allHeaders', 'headersArray', 'boundingBox', 'viewportSize', 'cookies', 'storageState',
  'evaluate', 'evaluateAll', 'allTextContents', 'allInnerTexts', 'textContent', 'innerText', 'inputValue', 'getAttribute', 'title', 'url', 'status', 'text',
]);
