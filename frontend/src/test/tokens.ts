/** Builds an unsigned JWT-shaped token with the given claims (the client never checks signatures). */
export function makeToken(claims: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.signature`;
}

/** A token for `sub` that expires `secondsFromNow` after the current (possibly faked) time. */
export function tokenFor(
  sub: string,
  secondsFromNow: number,
  roles = 'ROLE_USER',
): string {
  const now = Math.floor(Date.now() / 1000);
  return makeToken({ sub, roles, iat: now, exp: now + secondsFromNow });
}
