/** Claims gifshelf reads from its HS256 session token (the signature is the server's business). */
export type TokenClaims = {
  sub: string | null;
  roles: string[];
  /** Expiry in seconds since the epoch (the `exp` claim). */
  exp: number;
};

function decodeBase64Url(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** `"ROLE_USER,ROLE_ADMIN"` → `["USER", "ADMIN"]`. */
export function parseRoles(value: unknown): string[] {
  const parts = Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : typeof value === 'string'
      ? value.split(',')
      : [];
  return parts
    .map((role) => role.trim())
    .filter((role) => role.length > 0)
    .map((role) => (role.startsWith('ROLE_') ? role.slice('ROLE_'.length) : role));
}

/** Reads the token's claims; returns null when the token cannot be parsed or has no numeric exp. */
export function parseToken(token: string): TokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const payload: unknown = JSON.parse(decodeBase64Url(parts[1]));
    if (typeof payload !== 'object' || payload === null) return null;
    const claims = payload as Record<string, unknown>;
    if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) return null;
    return {
      sub: typeof claims.sub === 'string' ? claims.sub : null,
      roles: parseRoles(claims.roles),
      exp: claims.exp,
    };
  } catch {
    return null;
  }
}

/** A token that cannot be parsed counts as expired. */
export function isTokenExpired(token: string, now: number = Date.now()): boolean {
  const claims = parseToken(token);
  return claims === null || claims.exp * 1000 <= now;
}
