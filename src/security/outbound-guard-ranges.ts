import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses an outbound connection to a user-given address may reach
 * (docs/outbound-guard.md). The refused ranges are listed here explicitly, not taken from a
 * library's naming of ranges, so a library update cannot quietly open one; ipaddr.js does the
 * parsing and the CIDR matching. IPv6 forms that embed an IPv4 address (mapped, compatible,
 * translated, NAT64, 6to4) are judged by the IPv4 address they lead to.
 */
export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
export type Cidr = [IpAddress, number];

const cidrs = (list: ReadonlyArray<readonly [string, string]>) =>
  list.map(([cidr, reason]) => ({ cidr: ipaddr.parseCIDR(cidr), reason }));

const REFUSED_V4 = cidrs([
  ['0.0.0.0/8', 'unspecified ("this network")'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared address space (CGNAT)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.31.196.0/24', 'AS112'],
  ['192.52.193.0/24', 'AMT'],
  ['192.88.99.0/24', '6to4 relay anycast'],
  ['192.168.0.0/16', 'private'],
  ['192.175.48.0/24', 'AS112'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved or broadcast'],
]);

const REFUSED_V6 = cidrs([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'local-use NAT64'],
  ['100::/64', 'discard-only'],
  ['2001::/23', 'IETF protocol assignments (Teredo, benchmarking, ORCHID)'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'segment routing'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
]);

/** Only global unicast IPv6 (2000::/3) is reachable; everything else is reserved. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Cloud metadata and platform service addresses: refused even when an operator's allow-list
 * covers them (the allow-list opens private networks for self-hosted source control, never
 * the credentials endpoint of the machine the service runs on).
 */
const METADATA = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, Oracle, DigitalOcean
  '169.254.169.253', // AWS DNS
  '169.254.169.123', // AWS time
  '169.254.170.2', // AWS ECS task metadata
  '169.254.170.23', // AWS EKS pod identity
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud (classic)
  'fd00:ec2::254', // AWS IPv6
  'fd00:ec2::253',
  'fd00:ec2::123',
  'fd00:ec2::23',
]);

/** The IPv4 address an IPv6 address leads to when it embeds one (mapped, NAT64, 6to4...). */
export function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = address.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const zero = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  const tail = () => v4(p[6] as number, p[7] as number);
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated; :: and ::1 excluded).
  if (zero(0, 5) && p[5] === 0xffff) return tail();
  if (zero(0, 6) && !(p[6] === 0 && (p[7] as number) <= 1)) return tail();
  // ::ffff:0:a.b.c.d (SIIT translated).
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0) return tail();
  // 64:ff9b::a.b.c.d (well-known NAT64 prefix).
  if (p[0] === 0x64 && p[1] === 0xff9b && zero(2, 6)) return tail();
  // 2002:AABB:CCDD::/16 (6to4).
  if (p[0] === 0x2002) return v4(p[1] as number, p[2] as number);
  return null;
}

export function isMetadataAddress(address: IpAddress): boolean {
  if (METADATA.has(address.toString())) return true;
  if (address.kind() === 'ipv6') {
    const inner = embeddedIpv4(address as ipaddr.IPv6);
    return inner !== null && METADATA.has(inner.toString());
  }
  return false;
}

function refusedV4(address: ipaddr.IPv4): string | null {
  for (const { cidr, reason } of REFUSED_V4) {
    if (cidr[0].kind() === 'ipv4' && address.match(cidr as [ipaddr.IPv4, number])) return reason;
  }
  return null;
}

/**
 * Why the address must not be reached ("loopback", "IPv4-mapped private", ...), or null when it
 * is a public unicast address.
 */
export function refusalReason(address: IpAddress): string | null {
  if (isMetadataAddress(address)) return 'cloud metadata';
  if (address.kind() === 'ipv4') return refusedV4(address as ipaddr.IPv4);
  const v6 = address as ipaddr.IPv6;
  for (const { cidr, reason } of REFUSED_V6) {
    if (cidr[0].kind() === 'ipv6' && v6.match(cidr as [ipaddr.IPv6, number])) return reason;
  }
  const inner = embeddedIpv4(v6);
  if (inner) {
    const reason = refusedV4(inner);
    return reason ? `IPv6 form of a ${reason} IPv4 address` : null;
  }
  if (!v6.match(GLOBAL_UNICAST_V6 as [ipaddr.IPv6, number])) return 'reserved';
  return null;
}

/** Parses operator CIDRs (`10.0.0.0/8`, `fd12::/16`, or a bare address for one host). */
export function parseCidr(text: string): Cidr | null {
  const value = text.trim();
  try {
    if (value.includes('/')) return ipaddr.parseCIDR(value);
    const address = ipaddr.parse(value);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return null;
  }
}

/** Whether an operator allow-list admits the address (IPv6 forms of IPv4 match IPv4 networks). */
export function allowListed(address: IpAddress, allow: readonly Cidr[]): boolean {
  const candidates: IpAddress[] = [address];
  if (address.kind() === 'ipv6') {
    const inner = embeddedIpv4(address as ipaddr.IPv6);
    if (inner) candidates.push(inner);
  }
  return candidates.some((candidate) =>
    allow.some(([network, bits]) => {
      if (network.kind() !== candidate.kind()) return false;
      return candidate.kind() === 'ipv4'
        ? (candidate as ipaddr.IPv4).match(network as ipaddr.IPv4, bits)
        : (candidate as ipaddr.IPv6).match(network as ipaddr.IPv6, bits);
    }),
  );
}

/**
 * A strict IP literal (dotted-quad IPv4 after URL normalisation, or IPv6 without brackets or
 * zone), or null. Zone ids are dropped: an address with one is link-local and refused anyway.
 */
export function parseIpLiteral(text: string): IpAddress | null {
  const bare = text.replace(/%.*$/, '');
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  if (bare.includes(':') && ipaddr.IPv6.isValid(bare)) return ipaddr.IPv6.parse(bare);
  return null;
}
