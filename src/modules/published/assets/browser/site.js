/**
 * The script of every published site (`/s/@livery/site.js`), loaded in the head so that the
 * visitor's theme applies before anything paints. Progressive: every page reads and navigates
 * without it; what needs it (copying, printing) starts hidden. Type-checked as JavaScript
 * (tsconfig.json beside it), linted by Biome, bundled by esbuild (scripts/build-site-assets.ts).
 */
// Livery published site: theme toggle, announcement dismissal, page menu, feedback widget, view count.
(() => {
  var root = document.documentElement;
  var store = {
    /** @param {'localStorage' | 'sessionStorage'} area @param {string} key */
    get: (area, key) => {
      try {
        return window[area].getItem(key);
      } catch (_e) {
        return null;
      }
    },
    /** @param {'localStorage' | 'sessionStorage'} area @param {string} key @param {string} value */
    set: (area, key, value) => {
      try {
        window[area].setItem(key, value);
      } catch (_e) {}
    },
  };
  // The visitor's theme choice, before the page paints (only where the site lets them choose).
  // Choices are kept per site: every site of this Livery shares the origin's storage.
  var site = root.getAttribute('data-site') || '';
  var chosen = store.get('localStorage', `livery-theme:${site}`);
  function togglable() {
    return document.querySelector('.theme-toggle') !== null;
  }
  // The site's default theme; `system` is the visitor's OS preference, followed as it changes.
  var system = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  function defaultTheme() {
    var theme = root.getAttribute('data-default-theme') || 'light';
    if (theme !== 'system') return theme;
    return system?.matches ? 'dark' : 'light';
  }
  var hasChoice = chosen === 'light' || chosen === 'dark';
  root.setAttribute('data-theme', hasChoice ? chosen : defaultTheme());
  if (system?.addEventListener)
    system.addEventListener('change', () => {
      if (!hasChoice || !togglable()) root.setAttribute('data-theme', defaultTheme());
    });

  function visitorId() {
    var id = store.get('sessionStorage', 'livery-visitor');
    if (id) return id;
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    id = Array.prototype.map.call(bytes, (b) => (b + 256).toString(16).slice(1)).join('');
    store.set('sessionStorage', 'livery-visitor', id);
    return id;
  }
  function post(href, body) {
    return fetch(href, {
      method: 'POST',
      credentials: 'same-origin',
      keepalive: true,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  document.addEventListener('DOMContentLoaded', () => {
    var body = document.body;
    // Reader events (docs/insights.md, "Livery's published site"): page views, searches and
    // link clicks, reported beside the page; no cookie is set for them (the tab's random id).
    var whereabouts = () => ({
      siteSpaceId: body.dataset.siteSpaceId,
      visitorId: visitorId(),
      url: window.location.href,
    });
    var eventsHref = body.dataset.viewHref?.replace(/view$/, 'events');
    /** @param {object[]} events */
    function report(events) {
      if (eventsHref && body.dataset.siteSpaceId)
        post(eventsHref, { ...whereabouts(), pageId: body.dataset.pageId, events }).catch(() => {});
    }
    if (!togglable()) root.setAttribute('data-theme', defaultTheme());
    var toggle = document.querySelector('.theme-toggle');
    if (toggle)
      toggle.addEventListener('click', () => {
        var next = root.getAttribute('data-theme') === 'dark' ? 'light' : 'dark';
        root.setAttribute('data-theme', next);
        store.set('localStorage', `livery-theme:${site}`, next);
        hasChoice = true;
      });

    // The page menu: its buttons need this script, so they are shown here.
    /** @type {NodeListOf<HTMLElement>} */ (
      document.querySelectorAll('.page-actions [data-action]')
    ).forEach((button) => {
      button.hidden = false;
      button.addEventListener('click', () => {
        var menu = button.closest('details');
        if (menu) menu.open = false;
        var action = button.getAttribute('data-action');
        if (action === 'print') return window.print();
        if (action !== 'copy-markdown') return;
        var href = button.getAttribute('data-href');
        var label = button.querySelector('span');
        // Where the clipboard cannot be written (an http page, a refusal), the Markdown opens instead.
        fetch(href, { credentials: 'same-origin' })
          .then((response) => {
            if (!response.ok) throw new Error();
            return response.text();
          })
          .then((text) => navigator.clipboard.writeText(text))
          .then(() => {
            var before = label.textContent;
            label.textContent = button.getAttribute('data-done') || before;
            setTimeout(() => {
              label.textContent = before;
            }, 2000);
          })
          .catch(() => {
            window.location.href = href;
          });
      });
    });

    var banner = document.querySelector('.announcement');
    if (banner) {
      const key = `livery-dismissed:${site}:${banner.getAttribute('data-announcement')}`;
      if (store.get('localStorage', key)) banner.remove();
      else
        banner.querySelector('.dismiss').addEventListener('click', () => {
          store.set('localStorage', key, '1');
          banner.remove();
        });
    }

    // Search (docs/search.md): full-text, in the variant being read, answered by the site's
    // @livery/search as JSON; each result links to its page and, below it, the best section.
    var form = document.querySelector('.search');
    var search = form?.querySelector('input');
    if (form && search) {
      const results = document.createElement('div');
      results.className = 'search-results';
      results.hidden = true;
      form.appendChild(results);
      let timer = null;
      let asked = 0;
      function link(href, className, parts) {
        var a = document.createElement('a');
        a.href = href;
        a.className = className;
        parts.forEach((part) => {
          if (!part[1]) return;
          var span = document.createElement('span');
          span.className = part[0];
          span.textContent = part[1];
          a.appendChild(span);
        });
        return a;
      }
      // A query is reported once the reader stops typing for a second, not each keystroke.
      let reported = '';
      let pause = null;
      function reportQuery() {
        var query = search.value.trim();
        if (query.length < 2 || query === reported) return;
        reported = query;
        report([{ type: 'search_type_query', query }]);
      }
      function show(answer) {
        results.textContent = '';
        clearTimeout(pause);
        pause = setTimeout(reportQuery, 1000);
        answer.results.forEach((result) => {
          var item = document.createElement('div');
          item.className = 'search-result';
          var opened = link(result.href, 'search-result-page', [
            ['search-result-ancestors', result.ancestors.join(' › ')],
            ['search-result-title', result.title],
          ]);
          opened.addEventListener('click', () => {
            clearTimeout(pause);
            reportQuery();
            report([
              { type: 'search_open_result', query: search.value.trim(), pageId: result.pageId },
            ]);
          });
          item.appendChild(opened);
          if (result.section)
            item.appendChild(
              link(result.section.href, 'search-result-section', [
                ['search-result-heading', result.section.title],
                ['search-result-body', result.section.body],
              ]),
            );
          results.appendChild(item);
        });
        if (answer.results.length === 0) {
          const none = document.createElement('p');
          none.className = 'search-empty';
          none.textContent = form.getAttribute('data-no-results') || '';
          results.appendChild(none);
        }
        results.hidden = false;
      }
      function run() {
        var wanted = search.value.trim();
        var mine = ++asked;
        if (wanted.length < 2) {
          results.hidden = true;
          return;
        }
        var href =
          (root.getAttribute('data-site') || '') +
          '@livery/search?q=' +
          encodeURIComponent(search.value) +
          (body.dataset.siteSpaceId
            ? `&siteSpaceId=${encodeURIComponent(body.dataset.siteSpaceId)}`
            : '');
        fetch(href, { credentials: 'same-origin' })
          .then((response) => {
            if (!response.ok) throw new Error();
            return response.json();
          })
          .then((answer) => {
            if (mine === asked) show(answer);
          })
          .catch(() => {
            if (mine === asked) results.hidden = true;
          });
      }
      search.addEventListener('input', () => {
        clearTimeout(timer);
        timer = setTimeout(run, 150);
      });
      search.addEventListener('keydown', (event) => {
        if (event.key === 'Escape') {
          results.hidden = true;
          search.blur();
        }
      });
      // Enter opens the first result.
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        var first = results.hidden ? null : results.querySelector('a');
        if (first) window.location.href = first.href;
      });
      document.addEventListener('click', (event) => {
        if (!form.contains(/** @type {Node} */ (event.target))) results.hidden = true;
      });
      search.addEventListener('focus', () => {
        if (results.childElementCount > 0 && search.value.trim().length >= 2)
          results.hidden = false;
      });
    }

    var page = { siteSpaceId: body.dataset.siteSpaceId, pageId: body.dataset.pageId };
    if (body.dataset.viewHref && page.pageId)
      post(body.dataset.viewHref, {
        ...whereabouts(),
        pageId: page.pageId,
        referrer: document.referrer || undefined,
      }).catch(() => {});

    // A click on a link to elsewhere, with where on the page it was.
    document.addEventListener('click', (event) => {
      var a = /** @type {Element} */ (event.target).closest?.('a[href]');
      if (!(a instanceof HTMLAnchorElement) || a.origin === window.location.origin) return;
      if (!/^https?:$/.test(a.protocol)) return;
      var where = a.closest('.announcement, header, footer, aside, nav');
      var position = !where
        ? 'content'
        : where.matches('.announcement')
          ? 'announcement'
          : where.matches('header')
            ? 'header'
            : where.matches('footer')
              ? 'footer'
              : 'sidebar';
      report([{ type: 'link_click', url: a.href, position }]);
    });

    // Section group menus (sections.ts) are <details>: they open and close without this script,
    // which adds what a menu is expected to do: one open at a time, Escape and a click outside close it.
    var menus = /** @type {NodeListOf<HTMLDetailsElement>} */ (
      document.querySelectorAll('.section-menu')
    );
    menus.forEach((menu) => {
      menu.addEventListener('toggle', () => {
        if (menu.open)
          menus.forEach((other) => {
            if (other !== menu) other.open = false;
          });
      });
      menu.addEventListener('keydown', (event) => {
        if (event.key !== 'Escape' || !menu.open) return;
        menu.open = false;
        /** @type {HTMLElement} */ (menu.querySelector('summary')).focus();
      });
    });
    if (menus.length > 0)
      document.addEventListener('click', (event) => {
        menus.forEach((menu) => {
          if (menu.open && !menu.contains(/** @type {Node} */ (event.target))) menu.open = false;
        });
      });

    var widget = document.querySelector('.feedback');
    if (widget && body.dataset.feedbackHref)
      widget.querySelectorAll('button[data-rating]').forEach((button) => {
        button.addEventListener('click', () => {
          var rating = button.getAttribute('data-rating');
          void post(body.dataset.feedbackHref, {
            siteSpaceId: page.siteSpaceId,
            pageId: page.pageId,
            rating: rating,
            visitorId: visitorId(),
          }).then((response) => {
            if (!response.ok) return;
            widget.querySelectorAll('button[data-rating]').forEach((other) => {
              other.setAttribute('aria-pressed', String(other === button));
            });
            /** @type {HTMLElement} */ (widget.querySelector('.thanks')).hidden = false;
          });
        });
      });
  });
})();
