/**
 * The stylesheet of every published site (`/s/@livery/site.css`): it lays the page out and maps
 * the styling switches (body classes) onto the theme's custom properties (theme/css.ts).
 */
export const SITE_CSS = `/* Livery published site (docs/published-site.md) */
*, *::before, *::after { box-sizing: border-box; }
:root { --bg: #ffffff; --fg: #1c1d21; --muted: var(--tint-11); --line: var(--tint-6); --surface: var(--tint-2); }
[data-theme="dark"] { --bg: #111113; --fg: #edeef0; --surface: var(--tint-2); }
html { background: var(--bg); color: var(--fg); }
body { margin: 0; font-family: var(--font-sans); line-height: 1.6; background: var(--bg); color: var(--fg); }
code, pre, kbd { font-family: var(--font-mono); }
h1, h2, h3, h4, h5, h6 { font-family: var(--font-heading); }
pre { background: var(--surface); padding: 12px 16px; border-radius: var(--radius); overflow-x: auto; border: 1px solid var(--line); font-size: .9rem; line-height: 1.5; }
/* Highlighted code (code-highlight.ts): each token carries both code themes' colors; the page's theme picks one. */
pre.shiki { background: var(--shiki-light-bg); color: var(--shiki-light); }
pre.shiki span { color: var(--shiki-light); font-style: var(--shiki-light-font-style, inherit); font-weight: var(--shiki-light-font-weight, inherit); text-decoration: var(--shiki-light-text-decoration, inherit); }
[data-theme="dark"] pre.shiki { background: var(--shiki-dark-bg); color: var(--shiki-dark); }
[data-theme="dark"] pre.shiki span { color: var(--shiki-dark); font-style: var(--shiki-dark-font-style, inherit); font-weight: var(--shiki-dark-font-weight, inherit); text-decoration: var(--shiki-dark-text-decoration, inherit); }
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
.search-results { position: absolute; top: calc(100% + 4px); left: 0; right: 0; z-index: 20; max-height: 70vh; overflow-y: auto; padding: 6px; background: var(--bg); color: var(--fg); border: 1px solid var(--line); border-radius: var(--radius); box-shadow: 0 4px 16px rgb(0 0 0 / 12%); }
.search-result + .search-result { border-top: 1px solid var(--line); }
/* On the page background whatever the header's colors (.theme-bold .site-header a). */
.search-results .search-result a { display: block; padding: 6px 8px; color: var(--fg); text-decoration: none; border-radius: var(--radius); }
.search-results .search-result a:hover, .search-results .search-result a:focus { background: var(--tint-2); }
.search-result-ancestors { display: block; font-size: .75rem; color: var(--muted); }
.search-result-title { font-weight: 600; }
.search-result-section { font-size: .875rem; padding-left: 16px !important; }
.search-result-heading { font-weight: 500; }
.search-result-heading + .search-result-body::before { content: " · "; }
.search-result-body { color: var(--muted); }
.search-empty { margin: 6px 8px; color: var(--muted); }
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
.announcement-call { font-weight: 600; text-decoration: underline; margin-left: 4px; }
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
/* Social accounts (page-chrome.ts): brand icons in the text color, named for assistive technology. */
.social-links { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; list-style: none; margin: 0; padding: 0; }
.social-link { display: inline-flex; align-items: center; gap: 4px; color: var(--muted); text-decoration: none; }
.social-link:hover { color: var(--fg); }
.theme-bold .site-header .social-link { color: var(--primary-contrast); }
.brand-icon { width: 18px; height: 18px; fill: currentColor; flex-shrink: 0; }
.social-name { font-size: .85rem; }
.site-footer .social-links { width: 100%; }
/* The page menu (page-actions.ts): a main button, the other actions in a dropdown. */
.page-head { display: flex; align-items: center; justify-content: space-between; gap: 16px; }
.page-head h1 { flex: 1; min-width: 0; }
.page-actions { display: flex; flex-shrink: 0; }
.page-action { display: inline-flex; align-items: center; gap: 6px; padding: 5px 10px; border: 1px solid var(--line); border-radius: var(--radius-button); background: var(--bg); color: var(--fg); font: inherit; font-size: .875rem; line-height: 1.4; text-decoration: none; cursor: pointer; white-space: nowrap; }
.page-action:hover { background: var(--tint-3); }
.page-action-main:not(:last-child) { border-top-right-radius: 0; border-bottom-right-radius: 0; }
.page-actions-more summary { list-style: none; border-left: 0; border-top-left-radius: 0; border-bottom-left-radius: 0; height: 100%; }
.page-actions-more summary::-webkit-details-marker { display: none; }
.page-actions-more ul { z-index: 3; }
.page-actions-more li .page-action { display: flex; width: 100%; border: 0; border-radius: 0; background: none; padding: 6px 12px; }
.page-actions-more li .page-action:hover { background: var(--tint-3); }
.page-action .icon { color: var(--muted); }
/* Page bodies (documents/to-html.ts): GitBook's blocks. */
.content .table-wrap { overflow-x: auto; margin: 16px 0; }
.content table { border-collapse: collapse; min-width: 50%; }
.content th, .content td { border: 1px solid var(--line); padding: 6px 12px; text-align: left; vertical-align: top; }
.content th { background: var(--surface); font-weight: 600; }
.content .hint { margin: 16px 0; padding: 12px 16px; border-left: 4px solid var(--info-9); border-radius: var(--radius); background: var(--info-3); color: var(--info-12); }
.content .hint > :first-child { margin-top: 0; }
.content .hint > :last-child { margin-bottom: 0; }
.content .hint-success { border-left-color: var(--success-9); background: var(--success-3); color: var(--success-12); }
.content .hint-warning { border-left-color: var(--warning-9); background: var(--warning-3); color: var(--warning-12); }
.content .hint-danger { border-left-color: var(--danger-9); background: var(--danger-3); color: var(--danger-12); }
.content .hint a { color: inherit; }
.content .task-list { list-style: none; padding-left: 4px; }
.content .task-list-item input { margin: 0 6px 0 0; vertical-align: -1px; }
/* Tabs: radio buttons, the checked one's panel shown; without CSS every panel shows in turn. */
.content .tabs { display: flex; flex-wrap: wrap; margin: 16px 0; border: 1px solid var(--line); border-radius: var(--radius); }
.content .tabs > input { position: absolute; opacity: 0; pointer-events: none; }
.content .tabs > label { order: 0; padding: 8px 14px; cursor: pointer; color: var(--muted); border-bottom: 2px solid transparent; }
.content .tabs > input:checked + label { color: var(--primary-11); border-bottom-color: var(--primary-9); font-weight: 600; }
.content .tabs > input:focus-visible + label { outline: 2px solid var(--primary-9); outline-offset: -2px; }
.content .tabs > .tab-panel { order: 1; display: none; width: 100%; padding: 4px 16px; border-top: 1px solid var(--line); }
.content .tabs > input:checked + label + .tab-panel { display: block; }
.content .expandable { margin: 16px 0; padding: 8px 16px; border: 1px solid var(--line); border-radius: var(--radius); }
.content .expandable > summary { cursor: pointer; font-weight: 600; }
.content .content-ref { display: block; padding: 12px 16px; border: 1px solid var(--line); border-radius: var(--radius); text-decoration: none; font-weight: 600; }
.content .content-ref:hover { border-color: var(--primary-7); }
.content .code-block { margin: 16px 0; }
.content .code-block figcaption { font-family: var(--font-mono); font-size: .85rem; color: var(--muted); padding: 4px 0; }
.content .code-block pre { margin: 0; }
.content .images figure { margin: 16px 0; text-align: center; }
.content .images figcaption { font-size: .9rem; color: var(--muted); }
.content blockquote { margin: 16px 0; padding: 0 16px; border-left: 4px solid var(--line); color: var(--muted); }
.content hr { border: 0; border-top: 1px solid var(--line); margin: 24px 0; }
@media print { .site-header, .sidebar, .site-footer, .announcement, .page-actions, .pagination, .feedback, .edit-link, .breadcrumbs { display: none !important; } .layout { display: block; } .page { padding: 0; } pre { white-space: pre-wrap; } }
@media (max-width: 720px) { .layout { display: block; } .sidebar { width: auto; border-right: 0; } .page { padding: 16px; } }
`;
