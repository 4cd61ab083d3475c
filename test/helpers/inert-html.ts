import type { Page } from 'playwright-core';

/**
 * Whether a page's HTML, as a browser parses it (Chromium's DOMParser, which runs nothing), holds
 * anything active that its templates did not write: an element or attribute outside the ones
 * Livery writes, an event handler, a `javascript:`-like URL in a followed attribute, a script
 * with content or another source than Livery's, a style element that holds markup or rules
 * outside the theme's own (findCssBreaks). Answers the findings; none is the expected answer.
 */
interface ParsedElement {
  localName: string;
  attributes: Iterable<{ name: string; value: string }>;
  textContent: string | null;
  getAttribute(name: string): string | null;
}
interface ParsedDocument {
  querySelectorAll(selector: string): Iterable<ParsedElement>;
}

export async function findActive(page: Page, html: string): Promise<string[]> {
  const { findings, styles } = await page.evaluate((source) => {
    const TAGS = new Set(
      'html head meta title link script style body div header a span img form input nav ul ol li details summary button svg path circle rect text main h1 h2 h3 p article section small footer blockquote hr pre code figure figcaption table thead tbody tr th td label strong em s br dl dt dd time'.split(
        ' ',
      ),
    );
    // MathML, as KaTeX writes a formula (documents/blocks/math.ts): presentation elements only.
    for (const tag of 'math semantics annotation mrow mi mo mn ms mtext mspace mfrac msqrt mroot msub msup msubsup munder mover munderover mtable mtr mtd mpadded mphantom mstyle menclose mlabeledtr merror'.split(
      ' ',
    )) {
      TAGS.add(tag);
    }
    const ATTRIBUTES = new Set(
      'class href src alt title id lang rel target type name content charset property media role hidden tabindex style viewbox xmlns d cx cy r x y width height rx fill stroke focusable placeholder for checked disabled open start loading font-size download datetime'.split(
        ' ',
      ),
    );
    for (const name of 'display encoding stretchy fence separator mathvariant accent accentunder lspace rspace minsize maxsize symmetric largeop movablelimits columnalign columnspacing columnlines rowalign rowspacing rowlines scriptlevel displaystyle linethickness notation depth voffset mathcolor mathbackground framespacing equalrows equalcolumns side'.split(
      ' ',
    )) {
      ATTRIBUTES.add(name);
    }
    const FOLLOWED = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'poster']);
    const findings: string[] = [];
    const styles: string[] = [];
    // Runs in the page: its DOMParser, not Node's (which has none).
    const { DOMParser } = globalThis as unknown as {
      DOMParser: new () => { parseFromString(s: string, type: string): ParsedDocument };
    };
    const doc = new DOMParser().parseFromString(source, 'text/html');
    for (const element of doc.querySelectorAll('*')) {
      const tag = element.localName;
      if (!TAGS.has(tag)) findings.push(`element <${tag}>`);
      for (const attribute of element.attributes) {
        const { value } = attribute;
        const name = attribute.name.toLowerCase();
        const known = ATTRIBUTES.has(name) || name.startsWith('data-') || name.startsWith('aria-');
        if (name.startsWith('on') || !known) findings.push(`attribute ${name} on <${tag}>`);
        // As a browser reads a scheme: control characters and spaces ignored, any case.
        const squeezed = [...value]
          .filter((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f)
          .join('')
          .toLowerCase();
        const svgIcon = tag === 'link' && squeezed.startsWith('data:image/svg+xml,');
        if (
          FOLLOWED.has(name) &&
          !svgIcon &&
          /^(javascript|vbscript|data|file):/.test(squeezed) &&
          !/^data:image\/(gif|png|jpeg|webp);/.test(squeezed)
        ) {
          findings.push(`${name}="${value}" on <${tag}>`);
        }
        if (name === 'style' && /url\(|expression|javascript|[{}<]/i.test(value)) {
          findings.push(`style="${value}" on <${tag}>`);
        }
      }
      if (tag === 'script') {
        const src = element.getAttribute('src') ?? '';
        if (element.textContent !== '' || !/\/site\.js$/.test(src)) {
          findings.push(`script src="${src}": ${element.textContent}`);
        }
      }
      if (tag === 'style') styles.push(element.textContent ?? '');
    }
    return { findings, styles };
  }, html);
  return [...findings, ...styles.flatMap(findCssBreaks)];
}

/** The theme's rules (theme/css.ts): what a stylesheet of Livery's may select. */
const SELECTORS = new Set(['@font-face', ':root', ':root, [data-theme=]', '[data-theme=]']);

/**
 * What in a theme stylesheet (inline or linked) did not come from its template: with comments
 * and string literals taken out (where settings' texts go, escaped: font-family names, font
 * URLs), a selector other than the theme's, markup, or a script-like value.
 */
export function findCssBreaks(css: string): string[] {
  const bare = css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/"(?:[^"\\\n]|\\[\s\S])*"|'(?:[^'\\\n]|\\[\s\S])*'/g, '');
  const findings: string[] = [];
  if (/<\/?[a-z!]|javascript|expression\(|["'\\]/i.test(bare)) {
    findings.push(`stylesheet: ${bare.slice(0, 300)}`);
  }
  for (const match of bare.matchAll(/(?:^|\})([^{}]*)\{/g)) {
    const selector = (match[1] ?? '').trim();
    if (!SELECTORS.has(selector)) findings.push(`stylesheet rule: ${selector}`);
  }
  return findings;
}
