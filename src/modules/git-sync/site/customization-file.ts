import {
  OverridePatchSchema,
  SettingsInputSchema,
  type SettingsPatch,
} from '../../../settings/settings-schema.js';
import {
  checkAgainst,
  isViolation,
  readYamlFile,
  type Violation,
  validatorOf,
} from './yaml-file.js';

/**
 * Customization as code (Livery extension, docs/git-sync.md "Customization as code"): the file
 * `livery-customization.yaml` next to `docs.yaml` holds
 *
 * ```yaml
 * site:        # the site's customization: updateSiteCustomizationById's body
 *   styling: { primaryColor: { light: '#346DDB', dark: '#346DDB' } }
 * variants:    # each variant's override, keyed by its space node's `key` in docs.yaml:
 *   docs-fr:   #   overrideSiteSpaceCustomizationById's body
 *     title: Documentation
 * ```
 *
 * Each part is checked by the very schemas the customization API checks its bodies with
 * (settings/settings-schema.ts), by the same validator and wording. A part the file has is the
 * truth (the site's settings become `site`, fields left out taking their defaults, as PUT does;
 * each variant's override becomes exactly its entry, a variant not listed has none); a part the
 * file leaves out is left as the API and the studio set it.
 */
export const CUSTOMIZATION_FILE = 'livery-customization.yaml';

export interface CustomizationFile {
  file: string;
  site?: SettingsPatch;
  /** Space node key → the variant's whole override. */
  variants?: Map<string, SettingsPatch>;
}

export type CustomizationFileResult =
  | { ok: true; customization: CustomizationFile }
  | { ok: false; violations: Violation[] };

const PARTS = ['site', 'variants'];

/** `spaceKeys`: the keys of docs.yaml's space nodes, the only keys `variants` may name. */
export function readCustomizationFile(
  text: string,
  file: string,
  spaceKeys: ReadonlySet<string>,
): CustomizationFileResult {
  const yaml = readYamlFile(text, file);
  if (isViolation(yaml)) return { ok: false, violations: [yaml] };
  if (yaml.value === null || yaml.value === undefined) return { ok: true, customization: { file } };
  const fail = (message: string, path: (string | number)[], key?: string): Violation => ({
    rule: 'customization',
    file,
    line: yaml.lineOf(path),
    ...(key === undefined ? {} : { key }),
    message,
  });
  if (!isRecord(yaml.value))
    return { ok: false, violations: [fail('the file must be a mapping', [])] };

  const violations: Violation[] = [];
  const top = yaml.value;
  for (const name of Object.keys(top)) {
    if (!PARTS.includes(name)) {
      violations.push(fail(`${name} is not a known field; known fields: site, variants`, [name]));
    }
  }
  const customization: CustomizationFile = { file };
  if (top.site !== undefined && top.site !== null) {
    const wrong = checkAgainst(
      validatorOf(SettingsInputSchema),
      top.site,
      yaml,
      ['site'],
      'site',
      'customization',
    );
    if (wrong !== undefined) violations.push(wrong);
    else customization.site = top.site as SettingsPatch;
  }
  if (top.variants !== undefined && top.variants !== null) {
    if (!isRecord(top.variants)) {
      violations.push(fail('variants must be a mapping of space keys to overrides', ['variants']));
    } else {
      customization.variants = new Map();
      for (const [key, override] of Object.entries(top.variants)) {
        if (!spaceKeys.has(key)) {
          violations.push(
            fail(
              `variants.${key} names no space node of docs.yaml: its keys are the space nodes' keys`,
              ['variants', key],
              key,
            ),
          );
          continue;
        }
        const patch = override ?? {};
        const wrong = checkAgainst(
          validatorOf(OverridePatchSchema),
          patch,
          yaml,
          ['variants', key],
          `variants.${key}`,
          'customization',
          key,
        );
        if (wrong !== undefined) violations.push(wrong);
        else customization.variants.set(key, patch as SettingsPatch);
      }
    }
  }
  return violations.length > 0 ? { ok: false, violations } : { ok: true, customization };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
