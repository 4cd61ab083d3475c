import type { ApiTokenRow } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import { type Page, type PageRequest, toPage } from '../../http/pagination.js';
import type { Urls } from '../../urls.js';
import type { Actor } from '../audit/actor.js';
import type { ApiToken, CreateApiToken } from './schemas.js';
import type { IdentityService } from './service.js';

/**
 * The calling user's API tokens: list, create (secret shown once), revoke. The caller (the
 * actor) creates and revokes their own tokens.
 */
export class TokensService {
  constructor(
    private readonly identity: IdentityService,
    private readonly urls: Urls,
  ) {}

  async list(userId: string, page: PageRequest): Promise<Page<ApiToken>> {
    const { rows, count } = await this.identity.listActiveTokens(userId, page);
    return toPage(rows, page.limit, count, (row) => this.present(row));
  }

  async create(actor: Actor, input: CreateApiToken): Promise<ApiToken & { token: string }> {
    if (input.expiresAt !== undefined && !(Date.parse(input.expiresAt) > Date.now())) {
      throw badRequest('body.expiresAt must be a time in the future');
    }
    const { token, row } = await this.identity.createToken(
      actor.userId,
      {
        label: input.label,
        scopes: input.scopes,
        expiresAt:
          input.expiresAt === undefined ? undefined : new Date(input.expiresAt).toISOString(),
      },
      actor,
    );
    return { ...this.present(row), token };
  }

  async get(userId: string, tokenId: string): Promise<ApiToken> {
    const row = await this.identity.findActiveTokenOf(userId, tokenId);
    if (row === undefined) throw notFound('token', tokenId);
    return this.present(row);
  }

  revoke(actor: Actor, tokenId: string): Promise<boolean> {
    return this.identity.revokeToken(tokenId, actor.userId, actor);
  }

  private present(row: ApiTokenRow): ApiToken {
    return {
      object: 'api-token',
      id: row.id,
      ...(row.label === null ? {} : { label: row.label }),
      ...(row.scopes === null ? {} : { scopes: JSON.parse(row.scopes) as string[] }),
      createdAt: row.created_at,
      ...(row.expires_at === null ? {} : { expiresAt: row.expires_at }),
      ...(row.last_used_at === null ? {} : { lastUsedAt: row.last_used_at }),
      urls: { location: `${this.urls.base}/v1/user/tokens/${row.id}` },
    };
  }
}
