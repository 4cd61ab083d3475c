import type { Localized, TranslationLanguage } from '../../../settings/settings-parts.js';
import { NODE_SCHEMAS, NODE_TYPES, type NodeType, SiteConfigSchema } from './site-config-schema.js';
import { checkSiteRules, resolveDirectory } from './site-rules.js';
import {
  checkAgainst,
  isViolation,
  type Path,
  readYamlFile,
  type Violation,
  validatorOf,
  type YamlFile,
} from './yaml-file.js';

/**
 * The site's `docs.yaml` (GitBook 0.202's `GitSyncSiteConfig`, reference §1.3) read into a tree
 * of typed nodes, or every violation of its schema and rules (site-rules.ts), each with its rule,
 * its node's key, and its file and line. Nothing here touches the database or the repository.
 */

interface NodeBase {
  key: string;
  title: string;
  localizedTitle?: Localized;
  /** Where the node is in the file (for later messages). */
  at: Path;
  line?: number;
}

export interface SpaceNode extends NodeBase {
  type: 'space';
  path: string;
  default: boolean;
  hidden: boolean;
  draft: boolean;
  condition?: string;
  /** `content.directory` as written; null: a variant not fed from this repository. */
  directory: string | null;
  /** The directory as a path from the repository's top (null as above). */
  repositoryDirectory: string | null;
  language?: TranslationLanguage;
}

export interface SectionNode extends NodeBase {
  type: 'section';
  path: string;
  default: boolean;
  description?: string;
  localizedDescription?: Localized;
  icon?: string;
  condition?: string;
  children: StructureNode[];
}

export interface SectionGroupNode extends NodeBase {
  type: 'section-group';
  icon?: string;
  draft: boolean;
  children: StructureNode[];
}

export interface ExternalLinkNode extends NodeBase {
  type: 'external-link';
  url: string;
  description?: string;
  localizedDescription?: Localized;
  icon?: string;
  draft: boolean;
  condition?: string;
}

export type StructureNode = SpaceNode | SectionNode | SectionGroupNode | ExternalLinkNode;

export interface SiteConfig {
  /** The file's path in the repository. */
  file: string;
  title: string;
  structure: StructureNode[];
}

export type SiteConfigResult =
  | { ok: true; config: SiteConfig }
  | { ok: false; violations: Violation[] };

/**
 * Reads `text`, the file at `file` (its path in the repository), whose directory is the site's
 * project directory `projectDirectory` (a normal path, '' at the top).
 */
export function readSiteConfig(
  text: string,
  file: string,
  projectDirectory: string,
): SiteConfigResult {
  const yaml = readYamlFile(text, file);
  if (isViolation(yaml)) return { ok: false, violations: [yaml] };
  if (yaml.value === null || typeof yaml.value !== 'object' || Array.isArray(yaml.value)) {
    const violation = { rule: 'schema', file, line: 1, message: 'the file must be a mapping' };
    return { ok: false, violations: [violation] };
  }
  const top = checkAgainst(validatorOf(SiteConfigSchema), yaml.value, yaml, [], 'file', 'schema');
  if (top !== undefined) return { ok: false, violations: [top] };
  const site = (yaml.value as { site: { title: string; structure: unknown[] } }).site;

  const violations: Violation[] = [];
  const structure = readNodes(site.structure, ['site', 'structure'], yaml, violations);
  // The rules are about a tree of well-formed nodes: with a malformed node they would only
  // report its consequences (a default missing because the default node is unreadable).
  if (violations.length > 0) return { ok: false, violations };
  const config: SiteConfig = { file, title: site.title, structure };
  violations.push(...checkSiteRules(config, projectDirectory));
  if (violations.length > 0) return { ok: false, violations };
  resolveDirectories(config.structure, projectDirectory);
  return { ok: true, config };
}

function readNodes(
  items: unknown[],
  at: Path,
  yaml: YamlFile,
  violations: Violation[],
): StructureNode[] {
  const nodes: StructureNode[] = [];
  items.forEach((item, index) => {
    const node = readNode(item, [...at, index], yaml, violations);
    if (node !== undefined) nodes.push(node);
  });
  return nodes;
}

function readNode(
  item: unknown,
  at: Path,
  yaml: YamlFile,
  violations: Violation[],
): StructureNode | undefined {
  const part = partOf(at);
  const line = yaml.lineOf(at);
  const raw = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
  const key = typeof raw.key === 'string' ? raw.key : undefined;
  const type = raw.type;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    violations.push({ rule: 'schema', file: yaml.file, line, message: `${part} must be a node` });
    return undefined;
  }
  if (typeof type !== 'string' || !NODE_TYPES.includes(type as NodeType)) {
    violations.push({
      rule: 'schema',
      file: yaml.file,
      line: yaml.lineOf([...at, 'type']),
      ...(key === undefined ? {} : { key }),
      message: `${part}.type must be one of ${NODE_TYPES.map((t) => JSON.stringify(t)).join(', ')}`,
    });
    return undefined;
  }
  const validate = validatorOf(NODE_SCHEMAS[type as NodeType]);
  const wrong = checkAgainst(validate, item, yaml, at, part, 'schema', key);
  // The children are read even under a malformed node, to report their own problems too.
  const children = Array.isArray(raw.children)
    ? readNodes(raw.children, [...at, 'children'], yaml, violations)
    : [];
  if (wrong !== undefined) {
    violations.push(wrong);
    return undefined;
  }
  return typedNode(raw, type as NodeType, at, line, children);
}

function typedNode(
  raw: Record<string, unknown>,
  type: NodeType,
  at: Path,
  line: number | undefined,
  children: StructureNode[],
): StructureNode {
  const base = {
    key: raw.key as string,
    title: raw.title as string,
    ...optional(raw, 'localizedTitle'),
    at,
    ...(line === undefined ? {} : { line }),
  };
  switch (type) {
    case 'space': {
      const content = raw.content as { directory: string | null; language?: TranslationLanguage };
      return {
        type,
        ...base,
        path: raw.path as string,
        default: raw.default === true,
        hidden: raw.hidden === true,
        draft: raw.draft === true,
        ...optional(raw, 'condition'),
        directory: content.directory,
        repositoryDirectory: null,
        ...(content.language === undefined ? {} : { language: content.language }),
      };
    }
    case 'section':
      return {
        type,
        ...base,
        path: raw.path as string,
        default: raw.default === true,
        ...optional(raw, 'description', 'localizedDescription', 'icon', 'condition'),
        children,
      };
    case 'section-group':
      return { type, ...base, ...optional(raw, 'icon'), draft: raw.draft === true, children };
    case 'external-link':
      return {
        type,
        ...base,
        url: raw.url as string,
        ...optional(raw, 'description', 'localizedDescription', 'icon', 'condition'),
        draft: raw.draft === true,
      };
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the fields were validated by the node's schema
function optional(raw: Record<string, unknown>, ...names: string[]): Record<string, any> {
  const out: Record<string, unknown> = {};
  for (const name of names) if (raw[name] !== undefined) out[name] = raw[name];
  return out;
}

function resolveDirectories(nodes: StructureNode[], projectDirectory: string): void {
  for (const node of nodes) {
    if (node.type === 'space' && node.directory !== null) {
      node.repositoryDirectory = resolveDirectory(node.directory, projectDirectory) ?? null;
    }
    if (node.type === 'section' || node.type === 'section-group') {
      resolveDirectories(node.children, projectDirectory);
    }
  }
}

/** `['site','structure',0,'children',1]` → `site.structure[0].children[1]` */
export function partOf(at: Path): string {
  let part = '';
  for (const segment of at) {
    part += typeof segment === 'number' ? `[${segment}]` : part === '' ? segment : `.${segment}`;
  }
  return part;
}

/** Every node of the tree, depth first, in the file's order. */
export function* nodesOf(nodes: readonly StructureNode[]): Generator<StructureNode> {
  for (const node of nodes) {
    yield node;
    if (node.type === 'section' || node.type === 'section-group') yield* nodesOf(node.children);
  }
}
