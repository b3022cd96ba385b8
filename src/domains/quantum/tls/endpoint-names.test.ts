import { describe, expect, it } from 'vitest';
import { dnsName, ipLiteral } from './endpoints';

/** How a watched endpoint's host and server name are read (docs/quantum.md#tls-observations). */
describe('dnsName', () => {
  it.each([
    ['a plain name', 'example.com', 'example.com'],
    ['upper case and a trailing dot', 'WWW.Example.COM.', 'www.example.com'],
    ['a single label', 'intranet', 'intranet'],
    ['underscores of internal names', '_tls.svc_a.internal', '_tls.svc_a.internal'],
    ['a punycode label', 'xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['a 63-character label', `${'a'.repeat(63)}.test`, `${'a'.repeat(63)}.test`],
    ['a 64-character label', `${'a'.repeat(64)}.test`, null],
    ['a name over 253 characters', `${'a.'.repeat(127)}test`, null],
    ['an empty label', 'a..test', null],
    ['a leading hyphen', '-a.test', null],
    ['a trailing hyphen', 'a-.test', null],
    ['a space', 'a b.test', null],
    ['a port', 'example.com:443', null],
    ['a scheme', 'https://example.com', null],
    ['non-ASCII letters', 'bücher.example', null],
    ['a dotted IPv4 address', '10.0.0.1', null],
    ['a short numeric IPv4 spelling', '127.1', null],
    ['a decimal IPv4 spelling', '2130706433', null],
    ['nothing', '', null],
    ['only a dot', '.', null],
  ])('%s', (_name, raw, expected) => {
    expect(dnsName(raw)).toBe(expected);
  });
});

describe('ipLiteral', () => {
  it.each([
    ['IPv4', '192.0.2.10', '192.0.2.10'],
    ['IPv6 in brackets', '[2001:DB8::1]', '2001:db8::1'],
    ['IPv6 without brackets', '2001:db8:0:0:0:0:0:1', '2001:db8::1'],
    ['an IPv4-mapped IPv6 address', '::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['a name', 'example.com', null],
    ['a numeric spelling the guard would read as IPv4', '0x7f.1', null],
    ['an address with a port', '192.0.2.10:443', null],
  ])('%s', (_name, raw, expected) => {
    expect(ipLiteral(raw)).toBe(expected);
  });
});
