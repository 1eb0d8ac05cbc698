/**
 * What a page can tell of its browser (user agent, viewport, WebGL, hover), evaluated in the page: a browser
 * build or switch that changes any of it changes what a test sees. Shared by bench/browser-flags.ts and
 * bench/browser-build.ts.
 */
export const seenByPage = () =>
  JSON.stringify({
    userAgent: navigator.userAgent,
    viewport: [innerWidth, innerHeight, devicePixelRatio],
    webgl: document.createElement('canvas').getContext('webgl') !== null,
    hover: matchMedia('(hover: hover)').matches,
  });
