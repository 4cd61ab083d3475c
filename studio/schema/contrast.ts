import { contrast, contrastText, scale } from '../../src/modules/theme/colors.js';
import { getAt, type Json } from './paths.js';

/**
 * WCAG 2.1 contrast warnings for the colors that carry text on the published site
 * (src/modules/theme/css.ts and src/modules/published/assets/browser/site.css):
 * - buttons (and the bold theme's header) put `--primary-contrast` text on the primary color;
 * - links are step 11 of the primary scale on the page background (unless links are "accent");
 * - the header's link color on its background color.
 */

export const MINIMUM_RATIO = 4.5;
const THEMES = ['light', 'dark'] as const;
/** The page's background and text colors (published/assets/browser/site.css `--bg`, `--fg`). */
const PAGE_BACKGROUND = { light: '#ffffff', dark: '#111113' };
const PAGE_TEXT = { light: '#1c1d21', dark: '#edeef0' };
const HEX = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

const colorAt = (settings: Json, path: string): string | undefined => {
  const value = getAt(settings, path);
  return typeof value === 'string' && HEX.test(value) ? value : undefined;
};

const describeRatio = (what: string, ratio: number) =>
  `${what}: contrast ${ratio.toFixed(2)}:1, below the ${MINIMUM_RATIO}:1 WCAG asks for text`;

/** Warnings by the settings path of the field they belong to. */
export function contrastWarnings(settings: Json): Record<string, string[]> {
  const warnings: Record<string, string[]> = {};
  const warn = (path: string, message: string) => {
    warnings[path] = [...(warnings[path] ?? []), message];
  };
  for (const theme of THEMES) {
    const primary = colorAt(settings, `styling.primaryColor.${theme}`);
    if (primary !== undefined) {
      const onButton = contrast(primary, contrastText(primary));
      if (onButton < MINIMUM_RATIO) {
        warn(
          'styling.primaryColor',
          describeRatio(`Button text on the ${theme} primary color`, onButton),
        );
      }
      if (getAt(settings, 'styling.links') !== 'accent') {
        const link = scale(primary, theme)[10] ?? primary;
        const onPage = contrast(link, PAGE_BACKGROUND[theme]);
        if (onPage < MINIMUM_RATIO) {
          warn(
            'styling.primaryColor',
            describeRatio(`Links on the ${theme} page background`, onPage),
          );
        }
      }
    }
    const background = colorAt(settings, `header.backgroundColor.${theme}`);
    const links = colorAt(settings, `header.linkColor.${theme}`);
    if (background !== undefined || links !== undefined) {
      const ratio = contrast(links ?? PAGE_TEXT[theme], background ?? PAGE_BACKGROUND[theme]);
      if (ratio < MINIMUM_RATIO) {
        const message = describeRatio(`Header links on the ${theme} header background`, ratio);
        if (links !== undefined) warn('header.linkColor', message);
        if (background !== undefined) warn('header.backgroundColor', message);
      }
    }
  }
  return warnings;
}
