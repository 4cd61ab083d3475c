/**
 * The color math of published sites (issue 7): from one customization color, a 12-step scale per
 * theme, and a readable text color on it. Pure functions; docs/published-site.md explains the
 * scale. Steps follow the common 12-step convention: 1–2 backgrounds, 3–5 component backgrounds,
 * 6–8 borders, 9–10 solid fills (9 is the given color itself), 11–12 text.
 *
 * Lightness is set in OKLab, a perceptual space, so a step looks equally far from its neighbours
 * whatever the hue; chroma is reduced where a color would fall outside sRGB.
 */

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

interface Oklch {
  l: number;
  c: number;
  h: number;
}

export type Theme = 'light' | 'dark';

/** OKLab lightness of steps 1–12 (step 9 is replaced by the color itself). */
const LIGHTNESS: Readonly<Record<Theme, readonly number[]>> = {
  light: [0.993, 0.982, 0.961, 0.937, 0.91, 0.878, 0.833, 0.77, 0, 0, 0.5, 0.3],
  dark: [0.178, 0.205, 0.252, 0.287, 0.322, 0.362, 0.418, 0.5, 0, 0, 0.79, 0.93],
};
/** Share of the color's chroma each step keeps: faint backgrounds, full solids. */
const CHROMA: readonly number[] = [0.08, 0.14, 0.25, 0.35, 0.45, 0.55, 0.68, 0.85, 1, 1, 0.9, 0.6];

/** `#rgb` or `#rrggbb` (any case), as the Color schema allows. */
export function parseHex(hex: string): Rgb {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex);
  if (match === null) throw new Error(`not a #rgb or #rrggbb color: ${hex}`);
  const digits =
    (match[1] as string).length === 3
      ? [...(match[1] as string)].map((d) => d + d).join('')
      : (match[1] as string);
  const value = Number.parseInt(digits, 16);
  return { r: (value >> 16) & 255, g: (value >> 8) & 255, b: value & 255 };
}

export function toHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

/** The 12 steps of `color`'s scale for `theme`, as `#rrggbb`; step 9 (index 8) is `color`. */
export function scale(color: string, theme: Theme): string[] {
  const base = toOklch(parseHex(color));
  const lightness = LIGHTNESS[theme];
  return lightness.map((l, index) => {
    if (index === 8) return toHex(parseHex(color));
    // Step 10 is the hover shade of step 9: a little darker in light themes, lighter in dark.
    const target =
      index === 9 ? Math.min(1, Math.max(0, base.l + (theme === 'light' ? -0.04 : 0.04))) : l;
    return toHex(inGamut({ l: target, c: base.c * (CHROMA[index] ?? 1), h: base.h }));
  });
}

/** WCAG 2 relative luminance of an sRGB color. */
export function luminance({ r, g, b }: Rgb): number {
  const [lr, lg, lb] = [r, g, b].map((v) => toLinear(v / 255)) as [number, number, number];
  return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
}

/** WCAG 2 contrast ratio of two colors, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(parseHex(a)), luminance(parseHex(b))];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export const WHITE = '#ffffff';
export const INK = '#111111';

/** The text color for text on `background`: white or near-black, whichever contrasts more. */
export function contrastText(background: string): string {
  return contrast(background, WHITE) >= contrast(background, INK) ? WHITE : INK;
}

// --- sRGB ↔ OKLab (Björn Ottosson's matrices) ---

function toLinear(v: number): number {
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

function fromLinear(v: number): number {
  return v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055;
}

function toOklch({ r, g, b }: Rgb): Oklch {
  const [lr, lg, lb] = [r, g, b].map((v) => toLinear(v / 255)) as [number, number, number];
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  const L = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
  const A = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
  const B = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  return { l: L, c: Math.hypot(A, B), h: Math.atan2(B, A) };
}

/** Linear sRGB of an OKLCH color (components may fall outside 0..1: out of gamut). */
function toLinearRgb({ l: L, c, h }: Oklch): [number, number, number] {
  const A = c * Math.cos(h);
  const B = c * Math.sin(h);
  const l = (L + 0.3963377774 * A + 0.2158037573 * B) ** 3;
  const m = (L - 0.1055613458 * A - 0.0638541728 * B) ** 3;
  const s = (L - 0.0894841775 * A - 1.291485548 * B) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
}

/** The color, its chroma reduced (by bisection) until it fits sRGB. */
function inGamut(color: Oklch): Rgb {
  const fits = (c: number) =>
    toLinearRgb({ ...color, c }).every((v) => v >= -1e-6 && v <= 1 + 1e-6);
  let chroma = color.c;
  if (!fits(chroma)) {
    let [low, high] = [0, chroma];
    for (let i = 0; i < 24; i++) {
      const mid = (low + high) / 2;
      if (fits(mid)) low = mid;
      else high = mid;
    }
    chroma = low;
  }
  const [r, g, b] = toLinearRgb({ ...color, c: chroma }).map(
    (v) => Math.min(1, Math.max(0, fromLinear(Math.min(1, Math.max(0, v))))) * 255,
  ) as [number, number, number];
  return { r, g, b };
}
