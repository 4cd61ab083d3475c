/**
 * What Livery keeps of a user agent (docs/insights.md): GitBook's families only, the values of
 * `SiteInsightsVisitorBrowser`, `…OS`, `…Device` and `…Bot`. The string itself is never stored:
 * with the language and the time it can single out a reader.
 */
export interface UserAgentFamilies {
  browser: 'chrome' | 'firefox' | 'safari' | 'edge' | 'ie' | 'opera' | 'unknown';
  os: 'windows' | 'macos' | 'linux' | 'android' | 'ios' | 'unknown';
  device: 'desktop' | 'tablet' | 'mobile' | 'unknown';
  /** GitBook's bot name, or null for a person's browser. */
  bot: string | null;
}

/** Substring (lower case) → GitBook's bot name; the first match wins, so specific names come first. */
const BOTS: readonly [string, string][] = [
  ['googlebot', 'googlebot'],
  ['bingbot', 'bingbot'],
  ['duckassistbot', 'duckassist'],
  ['duckduckbot', 'duckduckbot'],
  ['facebookexternalhit', 'facebookbot'],
  ['meta-externalagent', 'meta'],
  ['meta-externalfetcher', 'meta-fetcher'],
  ['applebot', 'applebot'],
  ['chatgpt-user', 'chatgpt'],
  ['gptbot', 'gptbot'],
  ['oai-searchbot', 'openai'],
  ['claude-code', 'claude-code'],
  ['claudebot', 'claudebot'],
  ['claude-user', 'claude'],
  ['anthropic', 'anthropic'],
  ['google-extended', 'gemini'],
  ['perplexity', 'perplexity'],
  ['cohere', 'cohere'],
  ['mistralai', 'mistral'],
  ['deepseek', 'deepseek'],
  ['bytespider', 'bytespider'],
  ['ccbot', 'ccbot'],
  ['amazonbot', 'amazonbot'],
  ['youbot', 'youbot'],
  ['cursor', 'cursor'],
  ['grok', 'grok'],
  ['github-copilot', 'github-copilot'],
];

/** Generic signs of an automated client with no name of GitBook's list. */
const GENERIC_BOT = /bot\b|crawler|spider|curl\/|wget\/|python-requests|node-fetch|headless/i;

export function userAgentFamilies(userAgent: string): UserAgentFamilies {
  const ua = userAgent.toLowerCase();
  const named = BOTS.find(([needle]) => ua.includes(needle));
  const bot = named?.[1] ?? (GENERIC_BOT.test(ua) ? 'unknown' : null);
  return { browser: browserOf(ua), os: osOf(ua), device: deviceOf(ua), bot };
}

function browserOf(ua: string): UserAgentFamilies['browser'] {
  if (ua.includes('edg/') || ua.includes('edge/')) return 'edge';
  if (ua.includes('opr/') || ua.includes('opera')) return 'opera';
  if (ua.includes('firefox/') || ua.includes('fxios/')) return 'firefox';
  if (ua.includes('chrome/') || ua.includes('crios/') || ua.includes('chromium/')) return 'chrome';
  if (ua.includes('msie ') || ua.includes('trident/')) return 'ie';
  if (ua.includes('safari/')) return 'safari';
  return 'unknown';
}

function osOf(ua: string): UserAgentFamilies['os'] {
  if (ua.includes('android')) return 'android';
  if (/iphone|ipad|ipod/.test(ua)) return 'ios';
  if (ua.includes('windows')) return 'windows';
  if (ua.includes('mac os x') || ua.includes('macintosh')) return 'macos';
  if (ua.includes('linux') || ua.includes('x11')) return 'linux';
  return 'unknown';
}

function deviceOf(ua: string): UserAgentFamilies['device'] {
  if (
    ua.includes('ipad') ||
    ua.includes('tablet') ||
    (ua.includes('android') && !ua.includes('mobile'))
  ) {
    return 'tablet';
  }
  if (ua.includes('mobi') || ua.includes('iphone')) return 'mobile';
  if (/windows|macintosh|x11|linux|cros/.test(ua)) return 'desktop';
  return 'unknown';
}
