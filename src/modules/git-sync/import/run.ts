import type { FastifyBaseLogger } from 'fastify';
import { BoundedCache } from '../../../bounded-cache.js';
import type { ContentLimits } from '../../../config.js';
import type { Db } from '../../../db/database.js';
import { newId } from '../../../ids.js';
import type { ContentRepository } from '../../content/repository.js';
import { walk } from '../../content/tree.js';
import type { FilesRepository, StoredReusableContent } from '../../files/repository.js';
import { FilesRepository as Files } from '../../files/repository.js';
import type { SpacesService } from '../../spaces/service.js';
import { type FrontMatter, type PageSource, splitPage } from '../format/front-matter.js';
import { GITBOOK_YAML, parseGitbookYaml, spaceRootOf } from '../format/gitbook-yaml.js';
import { inferSummary } from '../format/infer-summary.js';
import { titleOf } from '../format/markdown.js';
import { isInside, join, relativeTo, resolveInside } from '../format/paths.js';
import { parseSummary } from '../format/summary.js';
import type { ImportRequest } from '../service.js';
import { buildTree, type PageFile, type Warning } from './build-tree.js';
import { type FileCandidate, importFiles, referencedPaths } from './files.js';
import type { Snapshot, TreeEntry } from './snapshot.js';
import type { GitSource } from './source.js';
import { tocOf } from './toc.js';

/** A failure the repository or the request explains: its message is the operation's `error`. */
export class ImportFailed extends Error {
  constructor(
    message: string,
    readonly warnings: Warning[] = [],
  ) {
    super(message);
  }
}

/** Two-way sync: the space has a revision the import was not asked to replace (sync again). */
export class SpaceMoved extends Error {}

/** Where an import's time went, ms per phase (logged with its end, for operators). */
export type ImportTimings = Partial<Record<'fetch' | 'pages' | 'files' | 'write', number>>;

export type ImportOutcome =
  | {
      kind: 'imported';
      commit: string;
      revision: string;
      warnings: Warning[];
      timings: ImportTimings;
    }
  | { kind: 'unchanged'; commit: string; warnings: Warning[]; timings: ImportTimings };

/**
 * Page files as split and titled, by blob and path, kept between the imports of this process (a
 * re-import after a one-file commit then reads and parses one file, not every page: blobs never
 * change, and the result depends on the bytes and the path only). Bounded by the text's size.
 */
interface ParsedFile {
  split?: PageSource;
  title?: string;
  /** Why the bytes are not a page (binary, an LFS pointer). */
  problem?: string;
}
const PARSED = new BoundedCache<ParsedFile>(32 * 1024 * 1024);

const MODE_SYMLINK = '120000';
const MODE_SUBMODULE = '160000';
const LFS_POINTER = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\n/;
/** Tries of the final write when the space moved on meanwhile (a merge, another import). */
const WRITE_TRIES = 3;

/**
 * One import (docs/git-sync.md): the commit at the ref, read as GitBook reads it, becomes one new
 * revision written in one transaction with the operation's end, so a failure anywhere changes
 * nothing a reader sees. The repository's files are read from Git's object database only.
 */
export async function importCommit(input: {
  spaceId: string;
  fetchUrl: string;
  request: ImportRequest;
  projectDirectory: string;
  actor: string | null;
  lastCommit: string | null;
  signal: AbortSignal;
  spaces: SpacesService;
  content: ContentRepository;
  files: FilesRepository;
  source: Pick<GitSource, 'snapshot'>;
  limits: ContentLimits;
  log: FastifyBaseLogger;
  /**
   * Ends the operation in the revision's transaction, with the point both sides now agree on
   * (the revision, and the repository paths the space owns there).
   */
  end: (
    trx: Db,
    warnings: Warning[],
    commit: string,
    synced: { revisionId: string; owned: string[] },
  ) => Promise<boolean>;
  /**
   * Two-way sync: the space's revision the import must replace. Another revision meanwhile (an
   * edit not yet exported) ends the import with SpaceMoved instead of overwriting it.
   */
  expectedRevision?: string;
}): Promise<ImportOutcome> {
  const timings: ImportTimings = {};
  let mark = performance.now();
  const lap = (phase: keyof ImportTimings) => {
    const now = performance.now();
    timings[phase] = Math.round(now - mark);
    mark = now;
  };
  const snapshot = await input.source.snapshot(input.fetchUrl, input.request.ref, input.signal);
  lap('fetch');
  const warnings: Warning[] = [...(snapshot.warnings ?? [])];
  if (
    snapshot.oid === input.lastCommit &&
    input.request.force !== true &&
    input.request.standalone !== true
  ) {
    return { kind: 'unchanged', commit: snapshot.oid, warnings, timings };
  }
  const tree = new Map(snapshot.entries.map((entry) => [entry.path, entry]));
  const text = async (path: string): Promise<string | undefined> => {
    const entry = tree.get(path);
    if (entry === undefined || entry.mode === MODE_SUBMODULE) return undefined;
    const bytes = (await snapshot.read([entry.oid])).get(entry.oid);
    return bytes?.toString('utf8');
  };

  const configPath = join(input.projectDirectory, GITBOOK_YAML);
  const config = parseGitbookYaml(await text(configPath), configPath);
  warnings.push(...config.warnings);
  const root = spaceRootOf(input.projectDirectory, config);
  // The space's files, by their path in the root; links, submodules and LFS pointers set aside.
  const inRoot = new Map<string, TreeEntry>();
  for (const entry of snapshot.entries) {
    if (!isInside(entry.path, root) || entry.path === root) continue;
    const path = relativeTo(entry.path, root);
    if (entry.mode === MODE_SYMLINK) {
      warnings.push({ file: entry.path, message: 'a symbolic link: not followed, not imported' });
    } else if (entry.mode === MODE_SUBMODULE) {
      warnings.push({ file: entry.path, message: 'a submodule: its content is not imported' });
    } else inRoot.set(path, entry);
  }
  if (inRoot.size === 0) {
    throw new ImportFailed(
      root === ''
        ? 'The repository has no files at this ref'
        : `The directory "${root}" (the project directory and .gitbook.yaml's root) has no files at this ref`,
      warnings,
    );
  }

  const summaryPath = config.summary;
  const summaryText = await text(join(root, summaryPath));
  const names = new Set(inRoot.keys());
  const summary =
    summaryText === undefined
      ? { entries: inferSummary(names, config.readme), warnings: [] }
      : parseSummary(summaryText, {
          file: summaryPath,
          files: names,
          warnAs: join(root, summaryPath),
        });
  warnings.push(...summary.warnings);
  const toc = tocOf(summary.entries, config.readme, names, warnings, join(root, summaryPath));

  // Every page file and include, read in one stream; a file parsed by an earlier import of this
  // process (same blob, same path) is neither read nor parsed again.
  const includes = [...inRoot.keys()].filter((p) => /^\.gitbook\/includes\/[^/]+\.md$/i.test(p));
  const wanted = [...new Set([...toc.files, ...includes])];
  const parsedKey = (path: string, oid: string) => `${oid}\u0000${join(root, path)}`;
  const blobs = await snapshot.read(
    wanted.flatMap((p) => {
      const oid = inRoot.get(p)?.oid;
      return oid === undefined || PARSED.get(parsedKey(p, oid)) !== undefined ? [] : [oid];
    }),
  );
  if (input.signal.aborted) throw input.signal.reason;
  const pages = new Map<string, PageFile>();
  const frontMatters = new Map<string, FrontMatter>();
  const reusable: StoredReusableContent[] = [];
  const current = await input.content.revision(await input.spaces.currentRevisionId(input.spaceId));
  const priorReusable = new Map(
    (await input.files.reusableContents(input.spaceId, current?.reusableContents)).map((r) => [
      r.path,
      r,
    ]),
  );
  for (const path of wanted) {
    const entry = inRoot.get(path);
    if (entry === undefined) continue;
    const repoPath = join(root, path);
    const key = parsedKey(path, entry.oid);
    let parsed = PARSED.get(key);
    if (parsed === undefined) {
      const bytes = blobs.get(entry.oid);
      if (bytes === undefined) continue;
      const problem = textProblem(bytes);
      if (problem === undefined) {
        const split = splitPage(bytes.toString('utf8'), repoPath);
        const title = titleOf(split.body);
        parsed = { split, ...(title === undefined ? {} : { title }) };
      } else parsed = { problem };
      PARSED.set(key, parsed, bytes.length * 2 + 256);
    }
    if (parsed.problem !== undefined || parsed.split === undefined) {
      warnings.push({ file: repoPath, message: `${parsed.problem}: the page is not imported` });
      continue;
    }
    const split = parsed.split;
    warnings.push(...split.warnings);
    const fm = split.frontMatter;
    if (includes.includes(path) && !toc.files.has(path)) {
      const title =
        typeof fm.extra.title === 'string'
          ? fm.extra.title
          : (path.split('/').at(-1)?.replace(/\.md$/i, '') ?? path);
      reusable.push({
        id: priorReusable.get(path)?.id ?? newId(),
        title,
        path,
        oid: entry.oid,
        gitPath: repoPath,
        markdown: split.body,
        ...(split.raw === undefined ? {} : { frontMatter: split.raw }),
      });
      continue;
    }
    const title = parsed.title;
    pages.set(path, {
      oid: entry.oid,
      repoPath,
      markdown: split.body,
      ...(split.raw === undefined ? {} : { frontMatter: split.raw }),
      ...(title === undefined ? {} : { title }),
      ...(fm.description === undefined ? {} : { description: fm.description }),
      ...(fm.hidden === undefined ? {} : { hidden: fm.hidden }),
      ...(fm.icon === undefined ? {} : { icon: fm.icon }),
    });
    frontMatters.set(path, fm);
  }

  const countPages = [...pages.keys()].length;
  if (countPages > input.limits.spacePages) {
    throw new ImportFailed(
      `The repository has ${countPages} pages, over SPACE_MAX_PAGES (${input.limits.spacePages}); nothing was imported`,
      warnings,
    );
  }

  lap('pages');
  // Files: the assets folder, and whatever a page or include names.
  const referenced = new Set<string>();
  for (const [path, page] of pages) {
    for (const p of referencedPaths(path, page.markdown, resolvePath)) referenced.add(p);
    const cover = frontMatters.get(path)?.cover;
    for (const src of [cover?.light, cover?.dark]) {
      const found = src === undefined ? undefined : resolvePath(path, src);
      if (found !== undefined) referenced.add(found);
    }
  }
  for (const item of reusable) {
    for (const p of referencedPaths(item.path, item.markdown, resolvePath)) referenced.add(p);
  }
  const candidates: FileCandidate[] = [];
  for (const [path, entry] of inRoot) {
    if (/\.md$/i.test(path) && !path.startsWith('.gitbook/assets/')) continue;
    if (path.startsWith('.gitbook/assets/') || referenced.has(path))
      candidates.push({ path, entry });
  }
  const priorFiles = await input.files.files(input.spaceId, current?.files);
  const files = await importFiles({
    candidates,
    previous: priorFiles,
    maxBytes: input.limits.fileBytes,
    maxFiles: input.limits.spaceFiles,
    read: (oids) => snapshot.read(oids),
    store: (blobs) => input.files.putBlobs(blobs),
    newId: () => newId(),
    warnings,
    repoPath: (path) => join(root, path),
  });
  if (input.signal.aborted) throw input.signal.reason;
  lap('files');

  // The page fields of front matter that name files (a cover) need the files' ids.
  const fileIds = new Map(files.map((f) => [f.path.normalize('NFC'), f.id]));
  for (const [path, page] of pages) {
    const fm = frontMatters.get(path);
    if (fm !== undefined) page.fields = pageFieldsOf(fm, path, fileIds);
  }
  const fileSet = files.length === 0 ? undefined : Files.setOf(files);
  const reusableSet = reusable.length === 0 ? undefined : Files.setOf(reusable);
  const git = {
    oid: snapshot.oid,
    message: snapshot.message,
    createdByGitBook: /^GITBOOK-\d+:/.test(snapshot.message),
    ref: input.request.ref,
    ...(input.request.repoCommitURL === undefined
      ? {}
      : { url: `${input.request.repoCommitURL}${snapshot.oid}` }),
  };
  const owned = [
    ...(summaryText === undefined ? [] : [join(root, summaryPath)]),
    ...reusable.map((r) => r.gitPath ?? join(root, r.path)),
    ...files.map((f) => f.gitPath ?? join(root, f.path)),
  ];
  for (let attempt = 1; ; attempt++) {
    const currentId = await input.spaces.currentRevisionId(input.spaceId);
    if (input.expectedRevision !== undefined && currentId !== input.expectedRevision) {
      throw new SpaceMoved();
    }
    const base = await input.content.revision(currentId);
    const now = new Date().toISOString();
    const built = buildTree({
      entries: toc.entries,
      files: pages,
      summaryFile: join(root, summaryPath),
      previous: base?.pages ?? [],
      now,
      newId: () => newId(),
    });
    // Groups and links count as pages too (SPACE_MAX_PAGES: documents, groups and links).
    let nodes = 0;
    for (const _ of walk(built.pages)) nodes++;
    if (nodes > input.limits.spacePages) {
      throw new ImportFailed(
        `The repository's table of contents has ${nodes} pages, groups and links, over SPACE_MAX_PAGES (${input.limits.spacePages}); nothing was imported`,
        warnings,
      );
    }
    const redirects = redirectsOf(config.redirects, built.pageFiles, built.warnings, configPath);
    const revisionId = newId();
    const written = await input.content.commitImport(
      {
        id: revisionId,
        spaceId: input.spaceId,
        type: 'edits',
        parents: [currentId],
        pages: built.pages,
        touched: [],
        createdBy: input.actor,
        createdAt: now,
        git,
        ...(input.request.standalone === true ? { standalone: true } : {}),
        files: fileSet?.hash ?? null,
        reusableContents: reusableSet?.hash ?? null,
        redirects: Object.keys(redirects).length === 0 ? null : redirects,
      },
      input.request.standalone === true ? undefined : currentId,
      async (trx) => {
        if (fileSet !== undefined) await input.files.putSet(trx, input.spaceId, fileSet);
        if (reusableSet !== undefined) await input.files.putSet(trx, input.spaceId, reusableSet);
        const pagePaths = [...built.pageFiles.keys()].map((p) => join(root, p));
        return input.end(trx, [...warnings, ...built.warnings], snapshot.oid, {
          revisionId,
          owned: [...new Set([...owned, ...pagePaths])].sort(),
        });
      },
    );
    if (written) {
      lap('write');
      return { kind: 'imported', commit: snapshot.oid, revision: revisionId, warnings, timings };
    }
    if (input.expectedRevision !== undefined) throw new SpaceMoved();
    if (attempt >= WRITE_TRIES) {
      throw new ImportFailed('The space kept changing during the import; run it again', warnings);
    }
  }
}

/**
 * `.gitbook.yaml`'s redirects as old path → page id: the old path without a leading `/` or a
 * trailing `.md` (how the site's paths look), the target a page file of the root (a leading `/` or
 * `./` tolerated, though GitBook says the first does not work). A target that is no page: a warning.
 */
function redirectsOf(
  redirects: ReadonlyMap<string, string>,
  pageFiles: ReadonlyMap<string, string>,
  warnings: Warning[],
  configPath: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [from, to] of redirects) {
    const source = from.replace(/^\/+/, '').replace(/\.md$/i, '').replace(/\/+$/, '');
    const target = resolveInside('', to.replace(/^\/+/, ''), '');
    const page =
      target === undefined
        ? undefined
        : (pageFiles.get(target) ??
          pageFiles.get(`${target}/README.md`) ??
          pageFiles.get(`${target}.md`));
    if (page === undefined || source === '') {
      warnings.push({
        file: configPath,
        message: `the redirect from "${from}" goes to "${to}", which is not a page of the space: it is not served`,
      });
      continue;
    }
    out[source] = page;
  }
  return out;
}

/** The page fields a page's front matter sets, beyond title, description, hidden and icon. */
function pageFieldsOf(
  fm: FrontMatter,
  path: string,
  fileIds: ReadonlyMap<string, string>,
): NonNullable<PageFile['fields']> {
  const refOf = (src: string | undefined) => {
    if (src === undefined || src === '') return undefined;
    if (/^[a-z][a-z0-9+.-]*:/i.test(src)) return { kind: 'url' as const, url: src };
    const resolved = resolvePath(path, src);
    const file = resolved === undefined ? undefined : fileIds.get(resolved.normalize('NFC'));
    return file === undefined
      ? { kind: 'url' as const, url: src }
      : { kind: 'file' as const, file };
  };
  const ref = refOf(fm.cover?.light);
  const refDark = refOf(fm.cover?.dark);
  const layout = Object.fromEntries(
    Object.entries(fm.layout ?? {}).filter(
      ([, v]) => typeof v === 'string' || typeof v === 'boolean',
    ),
  ) as Record<string, string | boolean>;
  return {
    ...(fm.noIndex === undefined ? {} : { noIndex: fm.noIndex }),
    ...(fm.noRobotsIndex === undefined ? {} : { noRobotsIndex: fm.noRobotsIndex }),
    ...(ref === undefined && refDark === undefined
      ? {}
      : {
          cover: {
            ...(ref === undefined ? {} : { ref }),
            ...(refDark === undefined ? {} : { refDark }),
            yPos: fm.cover?.yPos ?? 0,
            ...(fm.cover?.height === undefined ? {} : { height: fm.cover.height }),
          },
        }),
    ...(Object.keys(layout).length === 0 ? {} : { layout }),
  };
}

const resolvePath = (from: string, target: string) => {
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {}
  const folder = from.split('/').slice(0, -1).join('/');
  return resolveInside(folder, decoded, '');
};

/** Why bytes are not a Markdown page: binary data, or a Git LFS pointer. */
function textProblem(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8000).includes(0)) return 'binary data in a Markdown file';
  if (LFS_POINTER.test(bytes.subarray(0, 200).toString('latin1'))) {
    return 'a Git LFS pointer (Livery does not fetch LFS objects)';
  }
  return undefined;
}

export type { Snapshot };
