import { describe, expect, it } from 'vitest';
import { makeToken } from '@/test/tokens';
import { isTokenExpired, parseRoles, parseToken } from './jwt';

describe('parseToken', () => {
  it('reads sub, roles (ROLE_ prefix stripped) and exp', () => {
    const token = makeToken({ sub: 'alice', roles: 'ROLE_USER,ROLE_ADMIN', iat: 1, exp: 2 });
    expect(parseToken(token)).toEqual({ sub: 'alice', roles: ['USER', 'ADMIN'], exp: 2 });
  });

  it('reads a UTF-8 subject', () => {
    const claims = { sub: 'zoë', roles: 'ROLE_USER', exp: 5 };
    const bytes = new TextEncoder().encode(JSON.stringify(claims));
    const payload = btoa(String.fromCharCode(...bytes)).replace(/=+$/, '');
    expect(parseToken(`x.${payload}.y`)?.sub).toBe('zoë');
  });

  it.each(['', 'abc', 'a.b', 'a.!!!.c', makeToken({ sub: 'x' }), makeToken({ exp: 'soon' })])(
    'returns null for an unreadable token %#',
    (token) => {
      expect(parseToken(token)).toBeNull();
    },
  );
});

describe('parseRoles', () => {
  it('splits on commas, trims and strips ROLE_', () => {
    expect(parseRoles(' ROLE_USER , ROLE_ADMIN,')).toEqual(['USER', 'ADMIN']);
    expect(parseRoles(['ROLE_ADMIN'])).toEqual(['ADMIN']);
    expect(parseRoles(undefined)).toEqual([]);
  });
});

describe('isTokenExpired', () => {
  it('compares exp (seconds) with now (ms) and treats parse failures as expired', () => {
    const token = makeToken({ sub: 'a', exp: 100 });
    expect(isTokenExpired(token, 99_999)).toBe(false);
    expect(isTokenExpired(token, 100_000)).toBe(true);
    expect(isTokenExpired('garbage', 0)).toBe(true);
  });
});
