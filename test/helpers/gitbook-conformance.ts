import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestContext } from './app.js';
import {
  judge,
  operation,
  requestViolations,
  type SpecVersion,
  type Violation,
} from './gitbook-spec.js';
import {
  CONTRADICTIONS_0130,
  matchesPath,
  type NotImplementedInput,
  refusedInputs,
} from './gitbook-spec-quirks.js';

/**
 * The conformance tests' recorder: sends real requests to a test app, judges every response under
 * each GitBook version that has the operation (0.202 and 0.130; 0.91 for the operations only it
 * has: content insights) and keeps the verdicts for the per-file summary.
 */

/** The versions an operation is judged under. */
export function versionsOf(operationId: string): SpecVersion[] {
  const current = (['0.202', '0.130'] as const).filter((v) => operation(v, operationId));
  if (current.length > 0) return current;
  return operation('0.91', operationId) ? ['0.91'] : [];
}

export interface Judgement {
  version: SpecVersion;
  operationId: string;
  request: string;
  status: number;
  violations: Violation[];
  /** 0.130 violations that CONTRADICTIONS_0130 accepts. */
  accepted: Violation[];
  /** The body's values NOT_IMPLEMENTED_0202_INPUTS lists: the scenario is that 400. */
  refused: NotImplementedInput[];
}

export interface Call {
  method: string;
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

export interface Expectation {
  /**
   * The status(es) this scenario must get; another one is a violation. A body carrying a value
   * NOT_IMPLEMENTED_0202_INPUTS lists must get that 400 instead, whatever this says.
   */
  status: number | number[];
  /** The versions judged; by default all of versionsOf(operationId). */
  versions?: SpecVersion[];
  /** The body is deliberately invalid under every judged version (a 400 scenario). */
  invalidBody?: boolean;
}

const template = (path: string) =>
  new RegExp(
    `^/v1${path.replace(/\{pagePath\}/, '.+').replace(/\{[^}]+\}/g, '[^/]+')}/?(?:\\?.*)?$`,
  );

const accepts = (violation: Violation) =>
  CONTRADICTIONS_0130.some(
    (c) =>
      c.keyword === violation.keyword &&
      c.actual === violation.actual &&
      matchesPath(c.path, violation.path),
  );

export const describeViolation = (v: Violation) =>
  `${v.path || '(body)'} [${v.keyword}] ${v.message}${v.expected === undefined ? '' : ` — expected ${v.expected}`}`;

export class Conformance {
  readonly judgements: Judgement[] = [];
  private checked = 0;
  private failedChecks: string[] = [];

  constructor(private readonly t: TestContext) {}

  async call(
    operationId: string,
    call: Call,
    expect: Expectation,
  ): Promise<LightMyRequestResponse> {
    const versions = expect.versions ?? versionsOf(operationId);
    assert.ok(versions.length > 0, `${operationId} is in no GitBook spec`);
    let path = '';
    for (const version of versions) {
      const op = operation(version, operationId);
      assert.ok(op, `${operationId} is not in ${version}`);
      assert.equal(call.method, op.method, `${operationId} is ${op.method} in ${version}`);
      assert.match(call.url, template(op.path), `${call.url} is not ${operationId}'s path`);
      path = op.path;
      const invalid = requestViolations(version, operationId, call.payload);
      if (expect.invalidBody) {
        assert.ok(invalid.length > 0, `the body of this ${operationId} is valid under ${version}`);
      } else {
        assert.deepEqual(invalid.map(describeViolation), [], `a ${version} ${operationId} body`);
      }
    }
    const response = await this.t.request({
      method: call.method as 'GET',
      url: call.url,
      ...(call.payload === undefined ? {} : { payload: call.payload as object }),
      ...(call.headers ? { headers: call.headers } : {}),
    });
    const refused = expect.invalidBody ? [] : refusedInputs(operationId, call.payload);
    const wanted = refused.length > 0 ? [400] : ([] as number[]).concat(expect.status);
    for (const version of versions) {
      // A listed refusal is a 400 even where the spec declares none: that is not a violation.
      const violations = judge(version, operationId, response).filter(
        (v) => !(refused.length > 0 && response.statusCode === 400 && v.keyword === 'status'),
      );
      if (refused.length > 0) violations.push(...refusalViolations(refused, response));
      if (!wanted.includes(response.statusCode)) {
        violations.unshift({
          path: '',
          keyword: 'scenario',
          message: `got ${response.statusCode} ${response.body.slice(0, 160)}`,
          expected: `${wanted.join(' or ')} for this ${expect.invalidBody ? 'invalid' : 'valid'} ${version} request${refused.length > 0 ? ` refused by NOT_IMPLEMENTED_0202_INPUTS (${refused.map((r) => r.field).join(', ')})` : ''}`,
        });
      }
      const accepted = version === '0.130' ? violations.filter((v) => accepts(v)) : [];
      this.judgements.push({
        version,
        operationId,
        request: `${call.method} ${path}`,
        status: response.statusCode,
        violations: violations.filter((v) => !accepted.includes(v)),
        accepted,
        refused,
      });
    }
    return response;
  }

  /**
   * Runs an assertion on a value that came back without stopping the scenario when it fails (so
   * that the rest of it is still judged); the next assertConforms reports the failure.
   */
  check(assertion: () => void): void {
    try {
      assertion();
    } catch (error) {
      this.failedChecks.push(`value: ${(error as Error).message.split('\n').join(' ')}`);
    }
  }

  /** Asserts that the calls since the last check drew no violation (listing them when they did). */
  assertConforms(): void {
    const recent = this.judgements.slice(this.checked);
    this.checked = this.judgements.length;
    const lines = recent.flatMap((j) =>
      j.violations.map((v) => `${j.version} ${j.operationId} ${j.status}: ${describeViolation(v)}`),
    );
    const failed = this.failedChecks;
    this.failedChecks = [];
    assert.deepEqual([...new Set(lines), ...failed], [], 'GitBook schema violations');
  }

  operationsJudged(): Set<string> {
    return new Set(this.judgements.map((j) => j.operationId));
  }

  /** The per-version counts and every violation, grouped by operation, array indices as `*`. */
  report(title: string): string {
    const lines = [`GitBook conformance: ${title}`];
    for (const version of ['0.202', '0.130', '0.91'] as const) {
      const mine = this.judgements.filter((j) => j.version === version);
      if (mine.length === 0) continue;
      const ops = new Set(mine.map((j) => j.operationId));
      const failing = new Set(
        mine.filter((j) => j.violations.length > 0).map((j) => j.operationId),
      );
      const contradicted = new Set(
        mine.filter((j) => j.accepted.length > 0).map((j) => j.operationId),
      );
      const refusals = mine.filter((j) => j.refused.length > 0);
      lines.push(
        `  ${version}: ${ops.size} operations judged (${mine.length} responses), ` +
          `${ops.size - failing.size} conform` +
          (version === '0.130'
            ? ` (${contradicted.size} only through listed contradictions)`
            : '') +
          (refusals.length > 0
            ? `; ${refusals.length} responses are listed refusals of unimplemented inputs (${[...new Set(refusals.flatMap((j) => j.refused.map((r) => `${r.operationId}.${r.field}`)))].join(', ')})`
            : ''),
      );
    }
    const grouped = new Map<string, Set<string>>();
    for (const j of this.judgements) {
      for (const [v, kind] of [
        ...j.violations.map((v) => [v, 'VIOLATION'] as const),
        ...j.accepted.map((v) => [v, 'accepted contradiction'] as const),
      ]) {
        const key = `${j.operationId} (${j.version})`;
        const normal = { ...v, path: v.path.replace(/\/\d+(?=\/|$)/g, '/*') };
        if (normal.keyword === 'scenario') normal.message = `${j.request} → ${v.message}`;
        const set = grouped.get(key) ?? new Set<string>();
        set.add(`${kind}: ${j.status} ${describeViolation(normal)}`);
        grouped.set(key, set);
      }
    }
    for (const [key, set] of [...grouped].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`  ${key}`, ...[...set].map((line) => `    ${line}`));
    }
    return lines.join('\n');
  }
}

/**
 * What a listed refusal must say: GitBook's error envelope whose message names one of the refused
 * fields (`body.<field>: Livery has no …`), so a client learns which field and why.
 */
function refusalViolations(
  refused: NotImplementedInput[],
  response: LightMyRequestResponse,
): Violation[] {
  if (response.statusCode !== 400) return [];
  let message: unknown;
  try {
    message = (JSON.parse(response.body) as { error?: { message?: unknown } }).error?.message;
  } catch {
    message = undefined;
  }
  const named = refused.some(
    (r) => typeof message === 'string' && message.startsWith(`body.${r.field}: Livery has no `),
  );
  return named
    ? []
    : [
        {
          path: '',
          keyword: 'refusal',
          message: `400 message ${JSON.stringify(message)}`,
          expected: `"body.<field>: Livery has no …" for one of ${refused.map((r) => r.field).join(', ')}`,
        },
      ];
}
