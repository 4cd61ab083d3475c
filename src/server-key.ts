import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The server's secret key (docs/git-sync.md, "Credentials"): SECRET_KEY when set (every process
 * on one PostgreSQL needs the same one), else a random key kept in SECRET_KEY_FILE
 * (`./data/secret.key`, created at its first use, readable by its owner only). It encrypts what
 * Livery must read back (repository credentials, webhook secrets; AES-256-GCM, the purpose bound
 * in as associated data so that a secret of one kind cannot stand for another) and signs what it
 * hands out (preview links). Loaded on first use: building the app touches no file.
 */
export class ServerKey {
  private key: Buffer | undefined;

  constructor(private readonly source: { readonly value?: string; readonly file: string }) {}

  private get(): Buffer {
    if (this.key !== undefined) return this.key;
    let material: string;
    if (this.source.value !== undefined) material = this.source.value;
    else if (existsSync(this.source.file)) material = readFileSync(this.source.file, 'utf8').trim();
    else {
      material = randomBytes(32).toString('base64');
      mkdirSync(dirname(this.source.file), { recursive: true });
      writeFileSync(this.source.file, `${material}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(this.source.file, 0o600);
    }
    // Any text of enough entropy: hashed to the 32 bytes AES-256 takes.
    this.key = createHash('sha256').update(`livery-server-key\0${material}`).digest();
    return this.key;
  }

  /** `v1.<iv>.<ciphertext>.<tag>`, base64url parts. */
  encrypt(plain: string, purpose: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.get(), iv);
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, data, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The plain text, or undefined when the box was made with another key (or altered). */
  decrypt(box: string, purpose: string): string | undefined {
    const [version, iv, data, tag] = box.split('.');
    if (version !== 'v1' || iv === undefined || data === undefined || tag === undefined) {
      return undefined;
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.get(), Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(purpose, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(data, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return undefined;
    }
  }

  /** An HMAC-SHA256 of `data` for `purpose`, base64url (43 characters). */
  sign(purpose: string, data: string): string {
    return createHmac('sha256', this.get()).update(`${purpose}\0${data}`).digest('base64url');
  }

  /** Whether `signature` is `sign(purpose, data)`, compared in constant time. */
  verify(purpose: string, data: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(purpose, data), 'utf8');
    const given = Buffer.from(signature, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
