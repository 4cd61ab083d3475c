import type { Settings } from '../../../settings/settings-schema.js';
import { fontOrigins } from '../../theme/font-definitions.js';

/**
 * The Content-Security-Policy of a published page: scripts only from Livery, no plugins, no
 * framing by others, no `<base>`. Images may come from anywhere (logos, favicons and page images
 * are URLs). Fonts come from Livery, plus the origins of the site's custom font definitions
 * (`styling.font`, `headingFont`, `monospaceFont`), and from nowhere else. Styles stay
 * `'self' 'unsafe-inline'`: highlighted code colors its tokens with `style` attributes (custom
 * properties only), which no script can turn into code.
 */
const BASE = [
  "default-src 'self'",
  'img-src * data:',
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
];

/** The policy of a site without custom fonts (the plain 404, the sign-in page's fallback). */
export const STRICT_CSP = BASE.join('; ');

export function pageCsp(settings: Settings): string {
  const origins = fontOrigins(settings);
  if (origins.length === 0) return STRICT_CSP;
  return [...BASE, `font-src 'self' ${origins.join(' ')}`].join('; ');
}
