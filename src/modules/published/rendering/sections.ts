import { html, type SafeHtml } from '../../../html/safe-html.js';
import { attrUrl, ownUrl } from '../../../html/safe-url.js';
import type { Localized } from '../../../settings/settings-parts.js';
import type { Settings } from '../../../settings/settings-schema.js';
import { encodeSegment } from '../../../well-formed-text.js';
import { icon } from './icons.js';
import { localized } from './localized.js';
import { targetAttributes } from './page-chrome.js';
import { sectionIcon } from './section-icons.js';
import type { Strings } from './strings.js';

/**
 * The navigation between a site's sections (issue 29, docs/published-site.md "Sections"): a tab
 * per section at the root of the structure, a menu per section group (its sections, its nested
 * groups, its external links, each with its icon and description), a link out per external link.
 * GitBook 0.202's SiteStructure, read by PublishedRepository.structureOf. Pure, and written with
 * `html` templates: every title and description is escaped, every external URL passes the one
 * allow-list of schemes (html/safe-url.ts).
 */

interface Common {
  id: string;
  title: string;
  localizedTitle?: Localized;
  icon?: string;
  /** Not live (GitBook's `draft`): left out of the site. */
  draft: boolean;
  /** Left out of the navigation (docs.yaml's `hidden`); its pages are still served. */
  hidden: boolean;
}

export interface StructureSection extends Common {
  kind: 'section';
  description?: string;
  localizedDescription?: Localized;
  path: string;
  isDefault: boolean;
}

export interface StructureGroup extends Common {
  kind: 'group';
  children: StructureItem[];
}

export interface StructureLink extends Common {
  kind: 'link';
  description?: string;
  localizedDescription?: Localized;
  url: string;
}

export type StructureItem = StructureSection | StructureGroup | StructureLink;

/** A section's address: the site's root for the default section, `{root}{path}/` for the others. */
export function sectionBase(root: string, section: { path: string; isDefault: boolean }): string {
  return section.isDefault ? root : `${root}${encodeSegment(section.path)}/`;
}

/** What a visitor is shown: drafts and hidden items left out, groups left empty dropped. */
export function shownItems(items: readonly StructureItem[]): StructureItem[] {
  return items.flatMap((item): StructureItem[] => {
    if (item.draft || item.hidden) return [];
    if (item.kind !== 'group') return [item];
    const children = shownItems(item.children);
    return children.length === 0 ? [] : [{ ...item, children }];
  });
}

/** Whether `item` is, or holds, the section `sectionId`. */
function holds(item: StructureItem, sectionId: string): boolean {
  if (item.kind === 'section') return item.id === sectionId;
  if (item.kind === 'group') return item.children.some((child) => holds(child, sectionId));
  return false;
}

export interface SectionsInput {
  items: readonly StructureItem[];
  /** The section of the page shown. */
  currentSectionId: string;
  root: string;
  settings: Settings;
  strings: Strings;
}

const CURRENT = html` aria-current="true"`;

/**
 * The sections navigation, or '' when there is nothing to choose from (fewer than two shown
 * items). Without a script it works all the same: a group's menu is a `<details>`, and on a
 * narrow screen the list folds behind a checkbox's label.
 */
export function sectionsNav(input: SectionsInput): SafeHtml | '' {
  const items = shownItems(input.items);
  if (items.length < 2 && items.every((item) => item.kind === 'section')) return '';
  const { strings: t, currentSectionId } = input;
  const current = findSection(items, currentSectionId);
  const currentTitle = current === undefined ? t.sections : titleOf(current, input.settings);
  const tabs = items.map((item) => html`<li class="section-item">${tab(item, input)}</li>`);
  return html`<nav class="site-sections" aria-label="${t.sections}"><input type="checkbox" id="sections-toggle" class="sections-toggle"><label for="sections-toggle" class="sections-toggle-label">${current === undefined ? '' : sectionIcon(current.icon)}<span>${currentTitle}</span> ${icon('chevronDown')}</label><ul class="section-tabs">${tabs}</ul></nav>`;
}

function findSection(items: readonly StructureItem[], id: string): StructureSection | undefined {
  for (const item of items) {
    if (item.kind === 'section' && item.id === id) return item;
    if (item.kind === 'group') {
      const found = findSection(item.children, id);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

const locale = (s: Settings) => s.internationalization.locale;
const titleOf = (item: Common, s: Settings) =>
  localized(item.title, item.localizedTitle, locale(s));
const descriptionOf = (item: StructureSection | StructureLink, s: Settings) =>
  item.description === undefined
    ? undefined
    : localized(item.description, item.localizedDescription, locale(s));

/** A root item: a section's tab, a group's menu, an external link. */
function tab(item: StructureItem, input: SectionsInput): SafeHtml {
  const s = input.settings;
  const title = titleOf(item, s);
  if (item.kind === 'section') {
    const description = descriptionOf(item, s);
    const here = item.id === input.currentSectionId;
    return html`<a class="section-tab" href="${ownUrl(sectionBase(input.root, item))}"${here ? CURRENT : ''}${description === undefined ? '' : html` title="${description}"`}>${sectionIcon(item.icon)}<span>${title}</span></a>`;
  }
  if (item.kind === 'link') return externalLink(item, 'section-tab', input, false);
  const here = holds(item, input.currentSectionId);
  return html`<details class="section-menu"><summary class="section-tab"${here ? CURRENT : ''}>${sectionIcon(item.icon)}<span>${title}</span> ${icon('chevronDown')}</summary><ul class="section-menu-list">${item.children.map((child) => menuEntry(child, input))}</ul></details>`;
}

/** An entry of a group's menu: a section or a link with its description, or a nested group. */
function menuEntry(item: StructureItem, input: SectionsInput): SafeHtml {
  const s = input.settings;
  if (item.kind === 'group') {
    const children = item.children.map((child) => menuEntry(child, input));
    return html`<li class="section-subgroup"><span class="section-subgroup-title">${sectionIcon(item.icon)}<span>${titleOf(item, s)}</span></span><ul>${children}</ul></li>`;
  }
  if (item.kind === 'link')
    return html`<li>${externalLink(item, 'section-entry', input, true)}</li>`;
  const here = item.id === input.currentSectionId;
  return html`<li><a class="section-entry" href="${ownUrl(sectionBase(input.root, item))}"${here ? CURRENT : ''}>${entryText(item, titleOf(item, s), descriptionOf(item, s))}</a></li>`;
}

function entryText(item: Common, title: string, description: string | undefined): SafeHtml {
  return html`${sectionIcon(item.icon)}<span class="section-entry-text"><span class="section-entry-title">${title}</span>${description === undefined ? '' : html`<span class="section-entry-description">${description}</span>`}</span>`;
}

/**
 * An external link: opens its URL (honouring `externalLinks.target`), marked by the external
 * icon and, for assistive technology, words saying so. A URL outside the allow-list of schemes
 * shows as its title, not followable.
 */
function externalLink(
  item: StructureLink,
  className: string,
  input: SectionsInput,
  withDescription: boolean,
): SafeHtml {
  const s = input.settings;
  const title = titleOf(item, s);
  const description = descriptionOf(item, s);
  const url = attrUrl(item.url);
  const text = withDescription
    ? entryText(item, title, description)
    : html`${sectionIcon(item.icon)}<span>${title}</span>`;
  const mark = html` ${icon('external')}<span class="visually-hidden"> ${input.strings.externalLink}</span>`;
  if (url === undefined)
    return html`<span class="${className} section-external unresolved">${text}</span>`;
  const hint = !withDescription && description !== undefined ? html` title="${description}"` : '';
  return html`<a class="${className} section-external" href="${url}"${targetAttributes(item.url, s)}${hint}>${text}${mark}</a>`;
}
