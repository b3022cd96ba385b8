import CryptoJS from 'crypto-js';

export function encryptDraft(text, passphrase) {
  return CryptoJS.AES.encrypt(text, passphrase).toString();
}

export function draftHash(text) {
  return CryptoJS.SHA256(text).toString(CryptoJS.enc.Hex);
}
