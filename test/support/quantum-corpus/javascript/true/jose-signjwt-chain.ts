import * as jose from 'jose';

const ALG = 'PS256';
const ISSUER = 'https://auth.example.com';

export async function keys() {
  return jose.generateKeyPair(ALG, { extractable: true }); // expect: key-generation RSA
}

export async function mint(privateKey: jose.KeyLike, subject: string) {
  return new jose.SignJWT({ scope: 'read' })
    .setIssuedAt()
    .setProtectedHeader({ alg: ALG }) // expect: signature RSA
    .setIssuer(ISSUER)
    .setSubject(subject)
    .sign(privateKey);
}

export async function check(token: string, key: jose.KeyLike) {
  return jose.jwtVerify(token, key, { issuer: ISSUER, algorithms: ['ES384'] }); // expect: signature ECDSA
}
