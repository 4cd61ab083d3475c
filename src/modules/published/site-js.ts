/**
 * The script of every published site (`/s/@livery/site.js`), loaded in the head so that the
 * visitor's theme applies before anything paints. Progressive: every page reads and navigates
 * without it; what needs it (copying, printing) starts hidden.
 */
export const SITE_JS = `// Livery published site: theme toggle, announcement dismissal, page menu, feedback widget, view count.
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
  // The site's default theme; \`system\` is the visitor's OS preference, followed as it changes.
  var system = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  function defaultTheme() {
    var theme = root.getAttribute('data-default-theme') || 'light';
    if (theme !== 'system') return theme;
    return system && system.matches ? 'dark' : 'light';
  }
  var hasChoice = chosen === 'light' || chosen === 'dark';
  root.setAttribute('data-theme', hasChoice ? chosen : defaultTheme());
  if (system && system.addEventListener) system.addEventListener('change', function () {
    if (!hasChoice || !togglable()) root.setAttribute('data-theme', defaultTheme());
  });

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
    if (!togglable()) root.setAttribute('data-theme', defaultTheme());
    var toggle = document.querySelector('.theme-toggle');
    if (toggle) toggle.addEventListener('click', function () {
      var next = root.getAttribute('data-theme') === 'dark' ? 'light' : 'dark';
      root.setAttribute('data-theme', next);
      store.set('localStorage', 'livery-theme:' + site, next);
      hasChoice = true;
    });

    // The page menu: its buttons need this script, so they are shown here.
    document.querySelectorAll('.page-actions [data-action]').forEach(function (button) {
      button.hidden = false;
      button.addEventListener('click', function () {
        var menu = button.closest('details');
        if (menu) menu.open = false;
        var action = button.getAttribute('data-action');
        if (action === 'print') return window.print();
        if (action !== 'copy-markdown') return;
        var href = button.getAttribute('data-href');
        var label = button.querySelector('span');
        // Where the clipboard cannot be written (an http page, a refusal), the Markdown opens instead.
        fetch(href, { credentials: 'same-origin' })
          .then(function (response) { if (!response.ok) throw new Error(); return response.text(); })
          .then(function (text) { return navigator.clipboard.writeText(text); })
          .then(function () {
            var before = label.textContent;
            label.textContent = button.getAttribute('data-done') || before;
            setTimeout(function () { label.textContent = before; }, 2000);
          })
          .catch(function () { window.location.href = href; });
      });
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

    // Search (docs/search.md): full-text, in the variant being read, answered by the site's
    // @livery/search as JSON; each result links to its page and, below it, the best section.
    var form = document.querySelector('.search');
    var search = form && form.querySelector('input');
    if (form && search) {
      var results = document.createElement('div');
      results.className = 'search-results';
      results.hidden = true;
      form.appendChild(results);
      var timer = null;
      var asked = 0;
      function link(href, className, parts) {
        var a = document.createElement('a');
        a.href = href;
        a.className = className;
        parts.forEach(function (part) {
          if (!part[1]) return;
          var span = document.createElement('span');
          span.className = part[0];
          span.textContent = part[1];
          a.appendChild(span);
        });
        return a;
      }
      function show(answer) {
        results.textContent = '';
        answer.results.forEach(function (result) {
          var item = document.createElement('div');
          item.className = 'search-result';
          item.appendChild(link(result.href, 'search-result-page', [
            ['search-result-ancestors', result.ancestors.join(' › ')],
            ['search-result-title', result.title],
          ]));
          if (result.section) item.appendChild(link(result.section.href, 'search-result-section', [
            ['search-result-heading', result.section.title],
            ['search-result-body', result.section.body],
          ]));
          results.appendChild(item);
        });
        if (answer.results.length === 0) {
          var none = document.createElement('p');
          none.className = 'search-empty';
          none.textContent = form.getAttribute('data-no-results') || '';
          results.appendChild(none);
        }
        results.hidden = false;
      }
      function run() {
        var wanted = search.value.trim();
        var mine = ++asked;
        if (wanted.length < 2) { results.hidden = true; return; }
        var href = (root.getAttribute('data-site') || '') + '@livery/search?q=' + encodeURIComponent(search.value)
          + (body.dataset.siteSpaceId ? '&siteSpaceId=' + encodeURIComponent(body.dataset.siteSpaceId) : '');
        fetch(href, { credentials: 'same-origin' })
          .then(function (response) { if (!response.ok) throw new Error(); return response.json(); })
          .then(function (answer) { if (mine === asked) show(answer); })
          .catch(function () { if (mine === asked) results.hidden = true; });
      }
      search.addEventListener('input', function () {
        clearTimeout(timer);
        timer = setTimeout(run, 150);
      });
      search.addEventListener('keydown', function (event) {
        if (event.key === 'Escape') { results.hidden = true; search.blur(); }
      });
      // Enter opens the first result.
      form.addEventListener('submit', function (event) {
        event.preventDefault();
        var first = results.hidden ? null : results.querySelector('a');
        if (first) window.location.href = first.href;
      });
      document.addEventListener('click', function (event) {
        if (!form.contains(event.target)) results.hidden = true;
      });
      search.addEventListener('focus', function () {
        if (results.childElementCount > 0 && search.value.trim().length >= 2) results.hidden = false;
      });
    }

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
