import { describe, expect, it } from 'vitest';
import {
  checkAddress,
  checkUrlTarget,
  parseHostLiteral,
  type AddressPolicyOptions,
} from '../../../lib/domain/webhooks/address-policy';

const strict: AddressPolicyOptions = { allowLoopback: false, allowPrivate: false };
const permissive: AddressPolicyOptions = { allowLoopback: true, allowPrivate: true };
const optionMatrix: AddressPolicyOptions[] = [
  strict,
  { allowLoopback: true, allowPrivate: false },
  { allowLoopback: false, allowPrivate: true },
  permissive,
];

// Teredo keeps the client address bit-inverted in the last 32 bits; 4136:e378 is a real Teredo server.
const teredo = (ipv4: string) => {
  const [a = 0, b = 0, c = 0, d = 0] = ipv4.split('.').map(Number);
  const hex = (high: number, low: number) => (~((high << 8) | low) & 0xffff).toString(16);
  return `2001:0:4136:e378:8000:63bf:${hex(a, b)}:${hex(c, d)}`;
};

describe('checkAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this-network'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'cloud-metadata'],
    ['169.254.170.2', 'cloud-metadata'],
    ['100.100.100.200', 'cloud-metadata'],
    ['168.63.129.16', 'cloud-metadata'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'ietf-protocol'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', '6to4-relay'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['100::1', 'discard'],
    ['fc00::1', 'ipv6-ula'],
    ['fd12:3456:789a::1', 'ipv6-ula'],
    ['fe80::1', 'ipv6-link-local'],
    ['fe80::1%eth0', 'ipv6-link-local'],
    ['FEBF::1', 'ipv6-link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001:2::1', 'benchmarking'],
    ['2001:20::1', 'orchid'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['fd00:ec2::23', 'cloud-metadata'],
    ['fd20:ce::254', 'cloud-metadata'],
    ['fec0::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['64:ff9b:2::1', 'reserved'],
    // Embedded IPv4: judged by the IPv4 address the packet ends up at.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'cloud-metadata'],
    ['::ffff:a00:1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['::a9fe:a9fe', 'cloud-metadata'],
    ['64:ff9b::a9fe:a9fe', 'cloud-metadata'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b:1::7f00:1', 'loopback'],
    ['64:ff9b:1:7f:0:1::', 'nat64-local'],
    ['2002:a9fe:a9fe::', 'cloud-metadata'],
    ['2002:c0a8:0101::1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    [teredo('169.254.169.254'), 'cloud-metadata'],
    [teredo('127.0.0.1'), 'loopback'],
    [teredo('192.168.0.1'), 'private'],
  ])('refuses %s as %s by default', (ip, range) => {
    const verdict = checkAddress(ip, strict);
    expect(verdict).toMatchObject({ allowed: false, range });
    if (!verdict.allowed) expect(verdict.reason).toContain(ip);
    if (!verdict.allowed) expect(verdict.reason).toContain(range);
  });

  it('names the embedded address and the tunnel in the reason', () => {
    const verdict = checkAddress('64:ff9b::a9fe:a9fe', permissive);
    expect(verdict).toMatchObject({ allowed: false, range: 'cloud-metadata' });
    if (!verdict.allowed) expect(verdict.reason).toMatch(/embeds 169\.254\.169\.254 \(NAT64, RFC 6052\)/);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.0.0.1',
    // Neighbours of refused ranges, to pin the prefix lengths.
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700::1111',
    '2a00:1450:4001:82a::200e',
    '2001:4860:4860::8888',
    '2001:1::1',
    '::ffff:93.184.216.34',
    '::ffff:5db8:d822',
    '64:ff9b::93.184.216.34',
    '64:ff9b:1::5db8:d822',
    '2002:5db8:d822::1',
    teredo('93.184.216.34'),
  ])('allows the public address %s', (ip) => {
    expect(checkAddress(ip, strict)).toEqual({ allowed: true });
  });

  const configurable: Array<[string, 'loopback' | 'private' | 'never']> = [
    ['127.0.0.1', 'loopback'],
    ['127.10.20.30', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.0.10', 'private'],
    ['100.64.1.1', 'private'],
    ['fd12::1', 'private'],
    ['::ffff:192.168.1.1', 'private'],
    // Never configurable: link-local and metadata, even where they sit inside a private range.
    ['169.254.169.254', 'never'],
    ['169.254.1.1', 'never'],
    ['fe80::1', 'never'],
    ['fe80::1%eth0', 'never'],
    ['100.100.100.200', 'never'],
    ['fd00:ec2::254', 'never'],
    ['64:ff9b::a9fe:a9fe', 'never'],
    ['0.0.0.0', 'never'],
    ['224.0.0.1', 'never'],
  ];
  describe.each(optionMatrix)('with %o', (options) => {
    it.each(configurable)('%s (%s)', (ip, tier) => {
      const expected = (tier === 'loopback' && options.allowLoopback) || (tier === 'private' && options.allowPrivate);
      expect(checkAddress(ip, options).allowed).toBe(expected);
    });
  });

  it('suggests the option that would permit a configurable range', () => {
    // The variable an operator sets, not the option's name inside Hookline.
    expect(checkAddress('10.0.0.1', strict)).toMatchObject({
      reason: expect.stringContaining('set HOOKLINE_ALLOW_PRIVATE_NETWORKS=true'),
    });
    expect(checkAddress('::1', strict)).toMatchObject({
      reason: expect.stringContaining('set HOOKLINE_ALLOW_LOOPBACK=true'),
    });
    expect(checkAddress('169.254.169.254', strict)).toMatchObject({ reason: expect.not.stringContaining('allow') });
  });

  it.each(['', 'localhost', '127.1', '2130706433', '0177.0.0.1', '256.0.0.1', '1.2.3.4%eth0', '::1::', 'fe80::1%'])(
    'refuses the non-canonical or invalid address %j',
    (ip) => {
      expect(checkAddress(ip, permissive)).toMatchObject({ allowed: false, range: 'invalid' });
    },
  );
});

describe('parseHostLiteral', () => {
  const ipv4Notations: Array<[string, string]> = [
    ['127.0.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0X7F000001', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['10.1', '10.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0177.0x0.1', '127.0.0.1'],
    ['169.254.43518', '169.254.169.254'],
    ['0xa9.0376.0xa9fe', '169.254.169.254'],
    ['0', '0.0.0.0'],
    ['0x', '0.0.0.0'],
    ['00', '0.0.0.0'],
    ['4294967295', '255.255.255.255'],
    ['127.0.0.1.', '127.0.0.1'],
    ['93.184.216.34', '93.184.216.34'],
  ];

  it.each(ipv4Notations)('reads %s as %s', (host, expected) => {
    expect(parseHostLiteral(host)).toBe(expected);
  });

  // Our inet_aton rules must agree with the URL parser the worker also sees hostnames through.
  it.each(ipv4Notations)('agrees with WHATWG URL on %s', (host, expected) => {
    expect(new URL(`http://${host}/`).hostname).toBe(expected);
  });

  it.each([
    ['[::1]', '::1'],
    ['::1', '::1'],
    ['[0:0:0:0:0:0:0:1]', '::1'],
    ['[::]', '::'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['[::ffff:7f00:1]', '::ffff:7f00:1'],
    ['[2606:4700:0:0:0:0:0:1111]', '2606:4700::1111'],
    ['[2001:DB8::0001]', '2001:db8::1'],
    ['[1:0:0:2:0:0:3:4]', '1::2:0:0:3:4'],
    ['[1:0:0:2:0:0:0:4]', '1:0:0:2::4'],
    ['[1:0:2:3:4:5:6:7]', '1:0:2:3:4:5:6:7'],
    ['[64:ff9b::169.254.169.254]', '64:ff9b::a9fe:a9fe'],
    ['[fe80::1%25eth0]', 'fe80::1'],
    ['fe80::1%eth0', 'fe80::1'],
  ])('reads the IPv6 literal %s as %s', (host, expected) => {
    expect(parseHostLiteral(host)).toBe(expected);
    // Same serialisation as WHATWG URL, so raw and URL-parsed hosts compare equal.
    if (!host.includes('%')) expect(new URL(`http://[${expected}]/`).hostname).toBe(`[${expected}]`);
  });

  it.each([
    'example.com',
    'localhost',
    'hooks.example',
    '1e3',
    '-1',
    '',
    '.',
    '256.1.1.1',
    '1.2.3.256',
    '1.2.3.4.5',
    '4294967296',
    '0x100000000',
    '127.16777216',
    '127.0.0.0x100',
    '08.0.0.1',
    '0x7g.0.0.1',
    '1..1',
    '127.0.0.1..',
    ' 127.0.0.1',
    '127.0.0.1 ',
    '[127.0.0.1]',
    '[not-an-ip]',
    '[::1',
    '1::2::3',
  ])('returns null for %j', (host) => {
    expect(parseHostLiteral(host)).toBeNull();
  });

  // Out-of-range numeric hosts are not addresses to anyone: WHATWG URL refuses them outright.
  it.each(['256.1.1.1', '1.2.3.256', '1.2.3.4.5', '4294967296', '0x100000000', '127.16777216', '08.0.0.1', '1..1'])(
    'returns null for %j, which WHATWG URL also rejects',
    (host) => {
      expect(parseHostLiteral(host)).toBeNull();
      expect(() => new URL(`http://${host}/`)).toThrow();
    },
  );
});

describe('checkUrlTarget', () => {
  it.each([
    ['http://127.0.0.1/', '127.0.0.1', 'loopback'],
    ['http://2130706433/', '127.0.0.1', 'loopback'],
    ['http://0x7f000001/', '127.0.0.1', 'loopback'],
    ['http://0177.0.0.1/', '127.0.0.1', 'loopback'],
    ['http://127.1:8080/hook', '127.0.0.1', 'loopback'],
    ['http://[::1]:8080/', '::1', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1', 'loopback'],
    ['http://[::ffff:7f00:1]/', '::ffff:7f00:1', 'loopback'],
    ['http://10.0.0.1/', '10.0.0.1', 'private'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254', 'cloud-metadata'],
    ['http://[64:ff9b::a9fe:a9fe]/', '64:ff9b::a9fe:a9fe', 'cloud-metadata'],
    ['http://[2002:a9fe:a9fe::]/', '2002:a9fe:a9fe::', 'cloud-metadata'],
    ['https://[2002:c0a8:0101::1]/', '2002:c0a8:101::1', 'private'],
    ['https://0.0.0.0:3000/', '0.0.0.0', 'unspecified'],
  ])('refuses %s (literal %s, %s)', (url, literal, range) => {
    expect(checkUrlTarget(url, strict)).toMatchObject({ allowed: false, range, literal });
  });

  it('keeps link-local and metadata refused with every option on', () => {
    for (const url of ['https://169.254.169.254/', 'http://[fe80::1]/', 'http://100.100.100.200/']) {
      expect(checkUrlTarget(url, permissive)).toMatchObject({ allowed: false });
    }
  });

  it('lets the options open loopback and private literals', () => {
    expect(checkUrlTarget('http://127.0.0.1:4000/hook', permissive)).toEqual({ allowed: true, literal: '127.0.0.1' });
    expect(checkUrlTarget('http://10.0.0.1/', { allowLoopback: false, allowPrivate: true })).toEqual({
      allowed: true,
      literal: '10.0.0.1',
    });
  });

  it.each([
    ['https://93.184.216.34/hook', '93.184.216.34'],
    ['https://[2606:4700::1111]/', '2606:4700::1111'],
    ['https://example.com/hook', null],
    ['http://localhost:3000/', null],
  ])('allows %s (literal %s)', (url, literal) => {
    expect(checkUrlTarget(url, strict)).toEqual({ allowed: true, literal });
  });

  it('accepts a URL object', () => {
    expect(checkUrlTarget(new URL('http://[::1]/'), strict)).toMatchObject({ allowed: false, range: 'loopback' });
  });

  it.each([
    'ftp://example.com/',
    'file:///etc/passwd',
    'gopher://127.0.0.1:6379/_',
    'javascript:alert(1)',
    'ws://a.b/',
  ])('refuses the scheme of %s', (url) => {
    expect(checkUrlTarget(url, permissive)).toMatchObject({ allowed: false, range: 'scheme', literal: null });
  });

  it.each(['not a url', 'http://256.1.1.1/', 'http://[fe80::1%25eth0]/', 'http://[::1/', ''])(
    'refuses the unparseable URL %j',
    (url) => {
      expect(checkUrlTarget(url, permissive)).toMatchObject({ allowed: false, range: 'invalid', literal: null });
    },
  );
});
