import { contentTag } from '../modules/published/assets/assets.js';

/**
 * The script injected into preview pages (and into nothing else): it follows the preview's
 * events and reloads the page when the version it was rendered at is no longer current, keeping
 * the scroll position. A same-origin file, so the published pages' CSP (`script-src 'self'`)
 * lets it run unchanged; `connect-src` falls back to `default-src 'self'`, which allows the
 * EventSource.
 */
const SCRIPT = `(function () {
  var me = document.currentScript;
  var version = me ? me.getAttribute('data-version') : null;
  var key = 'livery-preview-scroll:' + location.pathname;
  try {
    var y = sessionStorage.getItem(key);
    if (y !== null) {
      sessionStorage.removeItem(key);
      window.scrollTo(0, Number(y));
    }
  } catch (e) {}
  var source = new EventSource('/__livery/preview/events');
  source.addEventListener('version', function (event) {
    if (event.data === version) return;
    try {
      sessionStorage.setItem(key, String(window.scrollY));
    } catch (e) {}
    source.close();
    location.reload();
  });
})();
`;

export const RELOAD_SCRIPT = { body: SCRIPT, etag: contentTag(SCRIPT) };
