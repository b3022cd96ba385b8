import { createDiffieHellman, createDiffieHellmanGroup, getDiffieHellman } from 'crypto';

// Interop with a legacy VPN appliance that only speaks classic Diffie-Hellman.
export function legacyGroup() {
  const dh = createDiffieHellmanGroup('modp14'); // expect: key-agreement DH
  dh.generateKeys();
  return dh;
}

export function olderGroup() {
  return getDiffieHellman('modp2'); // expect: key-agreement DH
}

export function freshPrime(bits = 2048) {
  return createDiffieHellman(bits); // expect: key-agreement DH
}
