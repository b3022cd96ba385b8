import { randomBytes, randomInt, randomUUID } from 'node:crypto';

export const requestId = () => randomUUID();
export const otp = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
export const token = () => randomBytes(32).toString('base64url');
export const browserNonce = () => globalThis.crypto.getRandomValues(new Uint8Array(16));
