import { isAllowedUrl } from '../../../html/safe-url.js';
import { join } from '../format/paths.js';
import type { SiteConfig, SpaceNode, StructureNode } from './site-config.js';
import type { Violation } from './yaml-file.js';

/**
 * The rules GitBook's `GitSyncSiteStructure` states ("checked on import — a violation fails the
 * sync, naming the offending node"), plus the path rules of `content.directory`. Each violation
 * names its rule (the names below, listed in docs/git-sync.md), the node's key and its line.
 */
export const RULES = {
  uniqueKeys: 'unique-keys',
  oneDefaultSpace: 'one-default-space',
  oneDefaultSection: 'one-default-section',
  noTopLevelSpaces: 'no-top-level-spaces',
  sectionChildren: 'section-children',
  sectionGroupChildren: 'section-group-children',
  sectionGroupDepth: 'section-group-depth',
  externalLinkPlace: 'external-link-place',
  externalLinkNeedsSection: 'external-link-needs-section',
  externalLinkUrl: 'external-link-url',
  sectionGroupNeedsSection: 'section-group-needs-section',
  directoryLanguage: 'directory-language',
  directoryParent: 'directory-parent',
} as const;

/**
 * `content.directory` as a path from the repository's top: `/x` from the top, `./x` and `x` from
 * the project directory; undefined when a segment is `..` (refused wherever it stands, as
 * GitBook's schema says, even where it would stay inside).
 */
export function resolveDirectory(written: string, projectDirectory: string): string | undefined {
  const segments = written.replaceAll('\\', '/').split('/');
  if (segments.includes('..')) return undefined;
  const inner = segments.filter((s) => s !== '' && s !== '.').join('/');
  return written.startsWith('/') || written.startsWith('\\')
    ? inner
    : join(projectDirectory, inner);
}

const NAMES = {
  space: 'a space',
  section: 'a section',
  'section-group': 'a section group',
  'external-link': 'an external link',
} as const;

type Parent = { type: 'root' } | { type: 'section' | 'section-group'; depth: number };

export function checkSiteRules(config: SiteConfig, projectDirectory: string): Violation[] {
  const violations: Violation[] = [];
  const fail = (rule: string, node: StructureNode | undefined, message: string) =>
    violations.push({
      rule,
      file: config.file,
      ...(node?.line === undefined ? {} : { line: node.line }),
      ...(node === undefined ? {} : { key: node.key }),
      message,
    });

  // Keys, placements, URLs and directories, node by node.
  const seen = new Map<string, StructureNode>();
  const sections: StructureNode[] = [];
  const links: StructureNode[] = [];
  const groups: StructureNode[] = [];
  const byDirectory = new Map<string, SpaceNode>();
  const visit = (nodes: readonly StructureNode[], parent: Parent) => {
    for (const node of nodes) {
      const first = seen.get(node.key);
      if (first !== undefined) {
        fail(
          RULES.uniqueKeys,
          node,
          `the key is already used by ${NAMES[first.type]} at line ${first.line}: every key is unique across the file`,
        );
      } else seen.set(node.key, node);
      checkPlace(node, parent, fail);
      if (node.type === 'section') sections.push(node);
      if (node.type === 'section-group') groups.push(node);
      if (node.type === 'external-link') {
        links.push(node);
        if (!isAllowedUrl(node.url)) {
          fail(RULES.externalLinkUrl, node, 'url must be an absolute http(s) URL');
        }
      }
      if (node.type === 'space') checkDirectory(node, projectDirectory, byDirectory, fail);
      if (node.type === 'section') {
        visit(node.children, { type: 'section', depth: 0 });
        checkOneDefault(node.children, node, fail);
      }
      if (node.type === 'section-group') {
        const depth = parent.type === 'section-group' ? parent.depth + 1 : 0;
        visit(node.children, { type: 'section-group', depth });
      }
    }
  };
  visit(config.structure, { type: 'root' });

  const topSpaces = config.structure.filter((n) => n.type === 'space');
  if (sections.length > 0) {
    for (const space of topSpaces) {
      fail(
        RULES.noTopLevelSpaces,
        space,
        'a site with sections lists no space at the top level: put it in a section',
      );
    }
    const defaults = sections.filter((s) => s.type === 'section' && s.default);
    if (defaults.length !== 1) {
      const node = defaults[1] ?? sections[0];
      fail(
        RULES.oneDefaultSection,
        node,
        `exactly one section is the default (default: true); ${defaults.length} are`,
      );
    }
  } else {
    for (const link of links) {
      fail(
        RULES.externalLinkNeedsSection,
        link,
        'external links exist only in a site with at least one section',
      );
    }
    for (const group of groups) {
      fail(
        RULES.sectionGroupNeedsSection,
        group,
        'section groups exist only in a site with at least one section',
      );
    }
    checkOneDefault(topSpaces, undefined, fail);
  }
  // In the file's order, whichever rule found them.
  return violations.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

type Fail = (rule: string, node: StructureNode | undefined, message: string) => void;

/** Which node may sit where. */
function checkPlace(node: StructureNode, parent: Parent, fail: Fail): void {
  if (parent.type === 'section' && node.type !== 'space') {
    const rule = node.type === 'external-link' ? RULES.externalLinkPlace : RULES.sectionChildren;
    fail(rule, node, `${NAMES[node.type]} cannot sit in a section: sections hold only spaces`);
  }
  if (parent.type === 'section-group') {
    if (node.type === 'space') {
      fail(
        RULES.sectionGroupChildren,
        node,
        'a space cannot sit in a section group: section groups hold sections, section groups and external links',
      );
    }
    if (node.type === 'section-group' && parent.depth >= 1) {
      fail(RULES.sectionGroupDepth, node, 'section groups nest one level deep at most');
    }
  }
}

/** Exactly one default among sibling spaces (a section's, or the top level's). */
function checkOneDefault(
  nodes: readonly StructureNode[],
  section: StructureNode | undefined,
  fail: Fail,
): void {
  const spaces = nodes.filter((n): n is SpaceNode => n.type === 'space');
  if (spaces.length === 0) {
    if (section !== undefined)
      fail(
        RULES.oneDefaultSpace,
        section,
        'a section holds at least one space, one of them the default',
      );
    return;
  }
  const defaults = spaces.filter((s) => s.default);
  if (defaults.length === 1) return;
  const where = section === undefined ? 'the top-level spaces' : 'the spaces of a section';
  fail(
    RULES.oneDefaultSpace,
    defaults[1] ?? section ?? spaces[0],
    `exactly one of ${where} is the default (default: true); ${defaults.length} are`,
  );
}

function checkDirectory(
  node: SpaceNode,
  projectDirectory: string,
  byDirectory: Map<string, SpaceNode>,
  fail: Fail,
): void {
  if (node.directory === null) return;
  const resolved = resolveDirectory(node.directory, projectDirectory);
  if (resolved === undefined) {
    fail(
      RULES.directoryParent,
      node,
      `content.directory ${JSON.stringify(node.directory)} has a ".." segment: directories stay inside the repository`,
    );
    return;
  }
  const other = byDirectory.get(resolved);
  if (other === undefined) {
    byDirectory.set(resolved, node);
    return;
  }
  if (other.language !== node.language) {
    const lang = (s: SpaceNode) => (s.language === undefined ? 'none' : JSON.stringify(s.language));
    fail(
      RULES.directoryLanguage,
      node,
      `reads the directory ${JSON.stringify(resolved || '/')} as space ${JSON.stringify(other.key)} does, with another content.language (${lang(node)}, not ${lang(other)}): one directory gives one language`,
    );
  }
}
