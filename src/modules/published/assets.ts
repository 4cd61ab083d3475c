import { createHash } from 'node:crypto';

/**
 * Livery's own files of every published site, served under `/s/@livery/` (no CDN: a site works
 * offline). The look comes from the theme CSS (theme/css.ts) through custom properties; this
 * stylesheet lays the page out and maps the styling switches (body classes) onto them. The
 * script is progressive: every page reads and navigates without it.
 */

export const SITE_CSS = `/* Livery published site (docs/published-site.md) */
*, *::before, *::after { box-sizing: border-box; }
:root { --bg: #ffffff; --fg: #1c1d21; --muted: var(--tint-11); --line: var(--tint-6); --surface: var(--tint-2); }
[data-theme="dark"] { --bg: #111113; --fg: #edeef0; --surface: var(--tint-2); }
html { background: var(--bg); color: var(--fg); }
body { margin: 0; font-family: var(--font-sans); line-height: 1.6; background: var(--bg); color: var(--fg); }
code, pre, kbd { font-family: var(--font-mono); }
pre { background: var(--surface); padding: 12px 16px; border-radius: var(--radius); overflow-x: auto; }
img { max-width: 100%; }
a { color: var(--link-color); text-decoration-color: var(--link-underline); text-underline-offset: 3px; }
.links-accent .content a { text-decoration-thickness: 2px; }
.site-header { display: flex; align-items: center; gap: 16px; padding: 10px 24px; border-bottom: 1px solid var(--line); background: var(--bg); position: sticky; top: 0; z-index: 2; }
.theme-bold .site-header { background: var(--primary-9); color: var(--primary-contrast); }
.theme-bold .site-header a, .theme-bold .site-header summary { color: var(--primary-contrast); }
/* On the primary-colored header, buttons invert so that they still stand out. */
.theme-bold .site-header .button-primary { background: var(--primary-contrast); color: var(--primary-9) !important; }
.theme-bold .site-header .button-secondary { border-color: var(--primary-contrast); color: var(--primary-contrast) !important; }
.theme-muted .site-header, .theme-muted .sidebar { background: var(--tint-2); }
.theme-gradient .site-header { background: linear-gradient(90deg, var(--primary-3), var(--tint-2)); }
.brand { display: flex; align-items: center; gap: 8px; text-decoration: none; color: inherit; font-weight: 600; font-size: 1.1rem; }
.logo { height: 32px; width: auto; }
.logo-dark { display: none; }
[data-theme="dark"] .logo-light { display: none; }
[data-theme="dark"] .logo-dark { display: inline; }
.search { flex: 1; max-width: 360px; position: relative; }
.search .icon-search { position: absolute; left: 10px; top: 50%; transform: translateY(-50%); color: var(--muted); }
.search input { padding-left: 32px !important; }
.search input { width: 100%; padding: 6px 10px; border-radius: var(--radius); border: 1px solid var(--line); background: var(--surface); color: var(--fg); font: inherit; }
.search-subtle input { border-color: transparent; background: transparent; }
.header-links { display: flex; gap: 12px; align-items: center; margin-left: auto; }
.header-link { text-decoration: none; color: inherit; cursor: pointer; }
.button-primary { background: var(--primary-9); color: var(--primary-contrast) !important; padding: 6px 12px; border-radius: var(--radius-button); }
.button-secondary { border: 1px solid var(--primary-7); color: var(--primary-11) !important; padding: 5px 12px; border-radius: var(--radius-button); }
.dropdown { position: relative; }
.dropdown summary { list-style: none; }
.dropdown ul { position: absolute; right: 0; margin: 4px 0 0; padding: 6px 0; list-style: none; min-width: 180px; background: var(--bg); border: 1px solid var(--line); border-radius: var(--radius); box-shadow: 0 4px 16px rgb(0 0 0 / 12%); }
.depth-flat .dropdown ul { box-shadow: none; }
.depth-subtle .pagination a, .depth-subtle .feedback { box-shadow: 0 1px 3px rgb(0 0 0 / 8%); }
/* The open menu sits on the page background, whatever the header's colors. */
.site-header .dropdown li a, .site-header .dropdown li span { display: block; padding: 4px 12px; color: var(--fg); text-decoration: none; }
/* Icons (icons.ts): their look follows styling.icons. */
.icon { width: 1em; height: 1em; vertical-align: -0.125em; fill: none; stroke: currentColor; stroke-width: var(--icon-stroke, 2); stroke-linecap: round; stroke-linejoin: round; flex-shrink: 0; }
.icon .fill { fill: none; }
.icons-light { --icon-stroke: 1.5; }
.icons-thin { --icon-stroke: 1; }
.icons-solid { --icon-stroke: 2.5; }
.icons-solid .icon .fill { fill: currentColor; }
.icons-duotone .icon .fill { fill: currentColor; fill-opacity: .3; }
.icon-external { width: .8em; height: .8em; }
.theme-toggle .icon-sun, [data-theme="dark"] .theme-toggle .icon-moon { display: none; }
[data-theme="dark"] .theme-toggle .icon-sun { display: inline; }
.pagination small .icon { margin: 0 4px; }
.theme-toggle { display: inline-flex; align-items: center; background: none; border: 1px solid var(--line); border-radius: var(--radius-button); color: inherit; cursor: pointer; padding: 4px 10px; font-size: 1rem; }
.announcement { display: flex; justify-content: center; align-items: center; gap: 12px; padding: 8px 24px; background: var(--info-3); color: var(--info-12); }
.announcement-warning { background: var(--warning-3); color: var(--warning-12); }
.announcement-danger { background: var(--danger-3); color: var(--danger-12); }
.announcement-success { background: var(--success-3); color: var(--success-12); }
.announcement a { color: inherit; }
.announcement .dismiss { background: none; border: 0; color: inherit; font-size: 1.2rem; cursor: pointer; }
.layout { display: flex; max-width: 1200px; margin: 0 auto; }
.sidebar { width: 260px; flex-shrink: 0; padding: 24px 16px; border-right: 1px solid var(--line); }
.sidebar-bg-filled .sidebar { background: var(--tint-2); }
.sidebar ul { list-style: none; margin: 0; padding-left: 12px; }
.sidebar > ul { padding-left: 0; }
.sidebar a { display: block; padding: 3px 8px; color: var(--fg); text-decoration: none; border-radius: var(--radius); }
.sidebar a[aria-current="page"] { color: var(--primary-11); background: var(--primary-3); font-weight: 600; }
.sidebar-list-pill .sidebar a { border-radius: var(--radius-button); padding: 3px 12px; }
.sidebar-list-pill .sidebar a[aria-current="page"] { background: var(--primary-9); color: var(--primary-contrast); }
.sidebar-list-line .sidebar a { border-left: 2px solid var(--line); border-radius: 0; }
.sidebar-list-line .sidebar a[aria-current="page"] { background: none; border-left-color: var(--primary-9); }
.nav-group { display: block; margin-top: 12px; padding: 3px 8px; font-size: .8rem; font-weight: 700; text-transform: uppercase; color: var(--muted); }
.variants { display: flex; gap: 6px; flex-wrap: wrap; margin-bottom: 16px; }
.variants a { padding: 2px 8px; border: 1px solid var(--line); border-radius: var(--radius-button); }
.variants a[aria-current="true"] { border-color: var(--primary-9); color: var(--primary-11); }
.page { flex: 1; min-width: 0; padding: 24px 40px 48px; }
.breadcrumbs { font-size: .85rem; color: var(--muted); }
.breadcrumbs a { color: var(--muted); }
.description { color: var(--muted); font-size: 1.1rem; }
.edit-link { font-size: .9rem; }
.feedback { margin-top: 40px; padding: 16px; border: 1px solid var(--line); border-radius: var(--radius); }
.feedback button { margin-right: 8px; padding: 4px 14px; border-radius: var(--radius-button); border: 1px solid var(--primary-7); background: var(--bg); color: var(--primary-11); cursor: pointer; font: inherit; }
.feedback button[aria-pressed="true"] { background: var(--primary-9); color: var(--primary-contrast); }
.pagination { display: flex; justify-content: space-between; gap: 16px; margin-top: 40px; }
.pagination a { flex: 1; padding: 12px 16px; border: 1px solid var(--line); border-radius: var(--radius); text-decoration: none; }
.pagination .next { text-align: right; }
.pagination small { display: block; color: var(--muted); }
.site-footer { border-top: 1px solid var(--line); padding: 24px; display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.footer-groups { display: flex; gap: 40px; flex: 1; }
.footer-group h2 { font-size: .9rem; margin: 0 0 8px; }
.footer-group ul { list-style: none; margin: 0; padding: 0; }
.copyright, .trademark { width: 100%; margin: 0; font-size: .85rem; color: var(--muted); }
.unresolved { color: var(--muted); }
@media (max-width: 720px) { .layout { display: block; } .sidebar { width: auto; border-right: 0; } .page { padding: 16px; } }
`;

export const SITE_JS = `// Livery published site: theme toggle, announcement dismissal, feedback widget, view count.
(function () {
  var root = document.documentElement;
  var store = {
    get: function (area, key) { try { return window[area].getItem(key); } catch (e) { return null; } },
    set: function (area, key, value) { try { window[area].setItem(key, value); } catch (e) {} },
  };
  // The visitor's theme choice, before the page paints (only where the site lets them choose).
  // Choices are kept per site: every site of this Livery shares the origin's storage.
  var site = root.getAttribute('data-site') || '';
  var chosen = store.get('localStorage', 'livery-theme:' + site);
  function togglable() { return document.querySelector('.theme-toggle') !== null; }
  if (chosen === 'light' || chosen === 'dark') root.setAttribute('data-theme', chosen);

  function visitorId() {
    var id = store.get('sessionStorage', 'livery-visitor');
    if (id) return id;
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    id = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join('');
    store.set('sessionStorage', 'livery-visitor', id);
    return id;
  }
  function post(href, body) {
    return fetch(href, {
      method: 'POST', credentials: 'same-origin', keepalive: true,
      headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    var body = document.body;
    if (!togglable()) root.setAttribute('data-theme', root.getAttribute('data-default-theme') || 'light');
    var toggle = document.querySelector('.theme-toggle');
    if (toggle) toggle.addEventListener('click', function () {
      var next = root.getAttribute('data-theme') === 'dark' ? 'light' : 'dark';
      root.setAttribute('data-theme', next);
      store.set('localStorage', 'livery-theme:' + site, next);
    });

    var banner = document.querySelector('.announcement');
    if (banner) {
      var key = 'livery-dismissed:' + site + ':' + banner.getAttribute('data-announcement');
      if (store.get('localStorage', key)) banner.remove();
      else banner.querySelector('.dismiss').addEventListener('click', function () {
        store.set('localStorage', key, '1');
        banner.remove();
      });
    }

    // Search: the table of contents narrowed to the pages whose titles match (no full-text search).
    var search = document.querySelector('.search input');
    if (search) search.addEventListener('input', function () {
      var wanted = search.value.trim().toLowerCase();
      var items = document.querySelectorAll('.sidebar li');
      items.forEach(function (item) { item.hidden = wanted !== ''; });
      if (wanted === '') return;
      items.forEach(function (item) {
        var label = item.firstElementChild ? item.firstElementChild.textContent.toLowerCase() : '';
        if (label.indexOf(wanted) === -1) return;
        for (var node = item; node && node.tagName === 'LI'; node = node.parentElement.parentElement) node.hidden = false;
      });
    });
    var form = document.querySelector('.search');
    if (form) form.addEventListener('submit', function (event) { event.preventDefault(); });

    var page = { siteSpaceId: body.dataset.siteSpaceId, pageId: body.dataset.pageId };
    if (body.dataset.viewHref && page.pageId) post(body.dataset.viewHref, page).catch(function () {});

    var widget = document.querySelector('.feedback');
    if (widget && body.dataset.feedbackHref) widget.querySelectorAll('button[data-rating]').forEach(function (button) {
      button.addEventListener('click', function () {
        var rating = button.getAttribute('data-rating');
        post(body.dataset.feedbackHref, {
          siteSpaceId: page.siteSpaceId, pageId: page.pageId, rating: rating, visitorId: visitorId(),
        }).then(function (response) {
          if (!response.ok) return;
          widget.querySelectorAll('button[data-rating]').forEach(function (other) {
            other.setAttribute('aria-pressed', String(other === button));
          });
          widget.querySelector('.thanks').hidden = false;
        });
      });
    });
  });
})();
`;

/** A strong ETag of a text. */
export const contentTag = (text: string) =>
  `"${createHash('sha256').update(text).digest('base64url').slice(0, 22)}"`;

export const ASSETS: Readonly<Record<string, { type: string; body: string; etag: string }>> = {
  'site.css': { type: 'text/css; charset=utf-8', body: SITE_CSS, etag: contentTag(SITE_CSS) },
  'site.js': { type: 'text/javascript; charset=utf-8', body: SITE_JS, etag: contentTag(SITE_JS) },
};
