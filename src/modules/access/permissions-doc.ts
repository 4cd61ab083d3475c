import { ORG_ROLES, PERMISSIONS, type Permission, SCOPES, SPACE_SEER } from './permissions.js';

/**
 * docs/permissions.md, rendered from the permission table the code enforces
 * (`npm run docs:permissions` writes it; test/http/permissions-doc.test.ts keeps it current).
 */
export function renderPermissionsDoc(): string {
  const rows = Object.entries(PERMISSIONS)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([operationId, permission]) => row(operationId, permission));
  return `${[
    '# Permissions',
    '',
    '<!-- Generated from src/modules/access/permissions.ts by `npm run docs:permissions`; do not edit. -->',
    '',
    'Every `/v1` operation is checked against one table (src/modules/access/permissions.ts) by one',
    'hook (src/modules/access/auth.ts), before its body is validated and before anything runs:',
    '',
    `- **Role**: the caller's role in the organization the request names (by its path, or through the space it names). Roles, lowest to highest: ${ORG_ROLES.map((r) => `\`${r}\``).join(' < ')}. \`guest\` in the table means any member. A member whose role is lower gets **403** naming the role needed; a non-member gets **404**, as for something that does not exist, so nothing is confirmed to strangers (\`deleteSpaceById\` answers GitBook's **204** "did not exist" to both instead). A member below \`${SPACE_SEER}\` (a guest) sees no space, so a path naming a space answers them **404** too, whatever the operation, exactly as for a space that does not exist.`,
    "- **Scope**: an API token may be restricted to scopes (GitBook 0.202 OAuth scope names, created with `POST /v1/user/tokens`). A restricted token lacking the operation's scope gets **403** naming the scope. A token without scopes has all of its user's rights. A token's rights are the intersection of its scopes and its user's role.",
    '- **Unscoped only**: managing API tokens needs a token without scopes, so a restricted token cannot create a broader one.',
    "- **Site token**: the public, read-only `apiToken` that `POST /v1/urls/published` mints for GitBook's renderer (docs/renderer.md) may call only the operations marked *site token*, and only on its own published site, the spaces it shows and their published revisions (anything else: **404**; any other operation: **403**; expired, forged or no longer opening its site: **401**).",
    '',
    '| operationId | minimum role | token scope | note |',
    '|---|---|---|---|',
    ...rows,
    '',
    `Scopes Livery knows: ${SCOPES.map((s) => `\`${s}\``).join(', ')}.`,
    '',
  ].join('\n')}`;
}

function row(operationId: string, permission: Permission): string {
  const fields = Object.entries(permission.fields ?? {}).map(
    ([field, needs]) => `with \`${field}\`: \`${needs.role}\` and \`${needs.scope}\``,
  );
  const role = permission.role === null ? 'any user (no organization)' : `\`${permission.role}\``;
  const scope = permission.unscopedOnly
    ? 'a token without scopes'
    : permission.scope === null
      ? '—'
      : `\`${permission.scope}\``;
  const note = [permission.siteToken ? '*site token*' : undefined, permission.note, ...fields]
    .filter(Boolean)
    .join('; ');
  return `| \`${operationId}\` | ${role} | ${scope} | ${note} |`;
}
