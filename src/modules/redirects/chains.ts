import { appendCaptured, parseSource, RuleIndex } from './source-path.js';

/**
 * Redirect loops and chains (docs/sites.md, "Redirects"). Pure. A rule leads on to another when
 * its destination is an address of the same site (an external URL under the site's published
 * address) that another live rule's source matches. Pages are not consulted: a page standing in
 * the way today may be deleted tomorrow, and the loop would then be served.
 */

/** The most redirects a visitor may be sent through before reaching an address that is not one. */
export const MAX_CHAIN = 5;

export interface ChainRule {
  id: string;
  /** Canonical source. */
  source: string;
  captureWildcard: boolean;
  /** The destination's canonical path in this site, or undefined when it leads elsewhere. */
  inSite: string | undefined;
}

export interface ChainProblem<R extends ChainRule> {
  kind: 'loop' | 'too-long';
  /** The rules in the order a visitor meets them, from the chain's first rule. */
  chain: R[];
  /** The changed rule the problem is blamed on, and which of its fields made it. */
  blamed: R;
  field: 'destination' | 'source';
}

/** What a visitor reaching a rule's source is sent through, from a path that rule matches. */
function follow<R extends ChainRule>(
  index: RuleIndex<R>,
  start: R,
): { kind: 'ok' | 'loop' | 'too-long'; chain: R[] } {
  const parsed = parseSource(start.source);
  let rule = start;
  // A path the rule matches: its source, or its prefix with a made-up suffix.
  let suffix = parsed.kind === 'exact' ? '' : 'x';
  let slash = parsed.kind === 'prefix' && parsed.slash;
  const chain: R[] = [];
  for (;;) {
    chain.push(rule);
    if (chain.length > MAX_CHAIN) return { kind: 'too-long', chain };
    if (rule.inSite === undefined) return { kind: 'ok', chain };
    const next = normalize(
      rule.captureWildcard ? appendCaptured(rule.inSite, suffix, slash) : rule.inSite,
    );
    const matched = index.match(next);
    if (matched === undefined) return { kind: 'ok', chain };
    if (chain.includes(matched.rule)) return { kind: 'loop', chain: [...chain, matched.rule] };
    ({ rule, suffix, slash } = matched);
  }
}

/** `//` folded, no trailing `/` except for the root. */
function normalize(path: string): string {
  const folded = path.replace(/\/{2,}/g, '/');
  return folded.length > 1 && folded.endsWith('/') ? folded.slice(0, -1) : folded;
}

/**
 * The first loop or over-long chain among a site's live rules that goes through a changed rule
 * (`changed`, ids, in the order the request named them), or undefined. Chains made only of
 * unchanged rules were accepted before and are not blamed on this change.
 */
export function findChainProblem<R extends ChainRule>(
  rules: readonly R[],
  changed: readonly string[],
): ChainProblem<R> | undefined {
  const index = new RuleIndex(rules);
  const order = new Map(changed.map((id, i) => [id, i]));
  let worst: ChainProblem<R> | undefined;
  let worstOrder = Number.POSITIVE_INFINITY;
  for (const rule of rules) {
    const { kind, chain } = follow(index, rule);
    if (kind === 'ok') continue;
    const blamed = chain.find((r) => order.has(r.id));
    if (blamed === undefined) continue;
    const at = order.get(blamed.id) ?? 0;
    const field = blamed === chain[0] ? 'destination' : 'source';
    // The earliest changed rule; for it, its own chain (its destination) before another's.
    if (at < worstOrder || (at === worstOrder && field === 'destination')) {
      if (at === worstOrder && worst?.field === 'destination') continue;
      worstOrder = at;
      worst = { kind, chain, blamed, field };
    }
  }
  return worst;
}

/** A problem told to the caller: the addresses in the order a visitor would meet them. */
export function describeChainProblem(problem: ChainProblem<ChainRule>): string {
  const sources = problem.chain.map((r) => r.source).join(' → ');
  return problem.kind === 'loop'
    ? `makes a redirect loop (${sources})`
    : `makes a chain of more than ${MAX_CHAIN} redirects (${sources} → …)`;
}
