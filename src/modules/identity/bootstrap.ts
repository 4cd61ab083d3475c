import type { Config } from '../../config.js';
import type { IdentityService } from './service.js';

/**
 * First start on an empty database: an organization, its owner (an admin) and an API token for
 * the owner. The token is printed once, unless the operator chose it (LIVERY_BOOTSTRAP_TOKEN),
 * in which case it is never printed.
 */
export async function bootstrapIfEmpty(
  identity: IdentityService,
  config: Config,
  print: (text: string) => void,
): Promise<boolean> {
  if (!(await identity.isEmpty())) return false;
  const created = await identity.createFirstOrganization({
    title: config.orgTitle,
    ownerName: 'Owner',
    token: config.bootstrapToken,
  });
  if (created === undefined) return false; // another process bootstrapped first
  const shown =
    config.bootstrapToken === undefined
      ? [
          '  API token of the owner (shown once; store it now):',
          '',
          `      ${created.token}`,
          '',
          `  Try: curl -H "Authorization: Bearer ${created.token}" ${config.baseUrl}/v1/orgs`,
        ]
      : ['  API token of the owner: the value of LIVERY_BOOTSTRAP_TOKEN (not printed).'];
  print(
    [
      '',
      '================================ Livery first start ================================',
      `  Created organization "${created.organization.title}" (id ${created.organization.id})`,
      `  and its owner, user ${created.user.id} (role admin, token id ${created.tokenId}).`,
      ...shown,
      '====================================================================================',
      '',
    ].join('\n'),
  );
  return true;
}
