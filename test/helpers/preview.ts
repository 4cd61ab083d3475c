import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ensureSiteAssets } from '../../scripts/build-site-assets.js';
import { ROOT } from './process.js';

/** A `livery preview` process (docs/preview.md), started through the npm `bin` launcher. */
export interface PreviewProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  stdout(): string;
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A folder for a preview, filled with `files` (path → text). */
export function previewFolder(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'livery-preview-test-'));
  writeFiles(folder, files);
  return folder;
}

export function writeFiles(folder: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
}

/**
 * Starts `bin/livery.js preview <folder> --port 0` and resolves once it prints its address.
 * `env` is added to a minimal environment (TMPDIR lets a test see the throwaway database go).
 */
export async function startPreview(
  folder: string,
  env: Record<string, string> = {},
): Promise<PreviewProcess> {
  ensureSiteAssets();
  const child = spawn(process.execPath, ['bin/livery.js', 'preview', folder, '--port', '0'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', WORKER_THREADS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => {
    out += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    err += String(chunk);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`preview did not start:\n${out}\n${err}`));
    }, 60_000);
    child.stdout?.on('data', () => {
      const match = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`preview exited with ${code}:\n${out}\n${err}`));
    });
  });
  return {
    child,
    url,
    stdout: () => out,
    stderr: () => err,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill(signal);
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

/**
 * Polls `check` until it answers a value (a change shows), or fails after `giveUpMs` with the
 * last answer: the time is a give-up, not a measured threshold (bench/preview.ts measures).
 */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  giveUpMs = 30_000,
): Promise<T> {
  const end = Date.now() + giveUpMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A page's HTML (redirects followed). */
export async function pageText(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url);
  return { status: response.status, text: await response.text() };
}

/**
 * A docs.yaml site for a preview (reference §1.3): two sections, the second in a section group
 * with an external link; the first section in two languages (English by default, French), and
 * a customization file (livery-customization.yaml).
 */
export const SITE_FILES: Record<string, string> = {
  'docs.yaml': `site:
  title: Acme docs
  structure:
    - type: section
      key: product
      title: Product
      path: product
      default: true
      children:
        - type: space
          key: guides-en
          title: Guides
          path: en
          default: true
          content: { directory: ./guides, language: en }
        - type: space
          key: guides-fr
          title: Guides en français
          path: fr
          content: { directory: ./guides-fr, language: fr }
    - type: section-group
      key: more
      title: More
      children:
        - type: section
          key: api
          title: API
          path: api
          children:
            - type: space
              key: api-ref
              title: API reference
              path: reference
              default: true
              content: { directory: ./api }
        - type: external-link
          key: status
          title: Status page
          url: https://status.example.com/
`,
  'livery-customization.yaml':
    "site:\n  styling:\n    primaryColor: { light: '#0b6e4f', dark: '#5fd3a8' }\n",
  'guides/README.md': '# Guides\n\nThe guides begin here.\n',
  'guides/install.md': '# Install\n\nInstall it in three steps.\n',
  'guides/SUMMARY.md': '# Table of contents\n\n* [Guides](README.md)\n* [Install](install.md)\n',
  'guides-fr/README.md': '# Guides\n\nLes guides commencent ici.\n',
  'api/README.md': '# API\n\nThe reference of the API.\n',
  'api/tokens.md': '# Tokens\n\nA token opens the API.\n',
};
